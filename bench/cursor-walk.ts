/** One page of a listing as the page envelope carries it (api-spec.md "Page envelope"). */
export interface PageEnvelope<T = unknown> {
  items: T[];
  nextCursor: string | null;
}

/** Fetches the page a cursor opens (null: the first page). */
export type PageFetcher<T = unknown> = (cursor: string | null) => Promise<PageEnvelope<T>>;

export interface WalkResult<T = unknown> {
  /** The cursor that opens page `pages + 1`. */
  cursor: string;
  /** Pages fetched. */
  pages: number;
  /** Items seen on those pages. */
  items: number;
  /** The last item of the last page fetched: the position the cursor continues after. */
  lastItem: T;
}

/**
 * Follows `nextCursor` from the first page through `depth` pages and returns the cursor of page
 * `depth + 1`, so a benchmark can fire at a deep page without paying for the walk. Fails when the
 * listing ends (or returns an empty page) before that depth: the benchmark would measure a
 * shallower page than it says.
 */
export async function walkCursors<T>(fetchPage: PageFetcher<T>, depth: number): Promise<WalkResult<T>> {
  if (!Number.isSafeInteger(depth) || depth < 1) throw new RangeError(`depth must be ≥ 1, got ${depth}`);
  let cursor: string | null = null;
  let items = 0;
  let lastItem: T | undefined;
  const seen = new Set<string>();
  for (let page = 1; page <= depth; page++) {
    const envelope = await fetchPage(cursor);
    if (!Array.isArray(envelope?.items)) throw new Error(`page ${page} has no items array`);
    if (envelope.items.length === 0)
      throw new Error(`page ${page} is empty; the listing is shorter than ${depth} pages`);
    items += envelope.items.length;
    lastItem = envelope.items[envelope.items.length - 1];
    if (envelope.nextCursor === null || envelope.nextCursor === undefined) {
      throw new Error(`the listing ends after ${page} pages (${items} items); ${depth} needed`);
    }
    if (seen.has(envelope.nextCursor)) throw new Error(`page ${page} repeats an earlier cursor`);
    seen.add(envelope.nextCursor);
    cursor = envelope.nextCursor;
  }
  return { cursor: cursor!, pages: depth, items, lastItem: lastItem as T };
}
