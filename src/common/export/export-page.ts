/**
 * One page of a person's own rows for their personal export (issue 35 item 3;
 * docs/decisions/0210-personal-export-archive-layout.md): `items` in a fixed order, `after` the
 * opaque cursor of the next page, null once the last page was read. Owning modules return it from
 * their exported export services; the exports module writes the pages one after the other.
 */
export interface ExportPage<T> {
  items: T[];
  after: string | null;
}

/** How many rows an export page reads at most. */
export const EXPORT_PAGE_ROWS = 500;

/** The cursor after a row ordered by (time, id): `<ISO time>|<uuid>`. */
export function exportCursorOf(at: Date, id: string): string {
  return `${at.toISOString()}|${id}`;
}

/** The (time, id) of a cursor `exportCursorOf` wrote; it never comes from a client. */
export function exportCursorValues(cursor: string): [string, string] {
  const [at, id] = cursor.split('|');
  return [at, id];
}

/** The page of `rows` read with a limit of `limit + 1`: the cursor only when a further row exists. */
export function exportPageOf<R, T>(
  rows: R[],
  limit: number,
  keyOf: (row: R) => string,
  map: (row: R) => T,
): ExportPage<T> {
  const shown = rows.slice(0, limit);
  return {
    items: shown.map(map),
    after: rows.length > limit && shown.length > 0 ? keyOf(shown[shown.length - 1]) : null,
  };
}
