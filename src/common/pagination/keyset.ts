import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { bothDirections, CursorCodec, invalidCursorIn, KeysetValue } from './cursor-codec';
import { PaginationQueryDto } from './pagination-query.dto';

export interface KeysetColumn {
  /** SQL expression as written in the query, e.g. `space.lastActivityAt`. Never nullable. */
  expression: string;
  direction: 'ASC' | 'DESC';
}

export interface KeysetOptions<Row> {
  /** Name mixed into the cursor MAC, unique per listing. */
  listing: string;
  /** Sort key, ending with a unique column so the order is total. Timestamps must be ms precision. */
  columns: KeysetColumn[];
  /** The keyset values of a fetched row, in `columns` order. */
  keyOf: (row: Row) => KeysetValue[];
  page: PaginationQueryDto;
  cursors: CursorCodec;
  /** Called with the decoded seek before the page is read: for a query that must also seek in a subquery. */
  beforeRead?: (seek: KeysetSeek) => void;
}

/** Where a page starts and which way it reads, as `beforeRead` receives it. */
export interface KeysetSeek {
  /** The cursor's keyset values, or null on a first page. */
  values: KeysetValue[] | null;
  /** True for a `before` cursor: the rows are read in the opposite order of the listing. */
  backward: boolean;
  /** Rows read: the page's limit plus one. */
  take: number;
}

export interface KeysetPage<Row> {
  rows: Row[];
  nextCursor: string | null;
  previousCursor: string | null;
}

/**
 * Keyset pagination (design.md §7) over a query builder: seeks past the cursor position with an
 * index-friendly row comparison and reads `limit + 1` rows to learn whether another page exists.
 * The cost of a page does not depend on its depth.
 */
export async function paginateKeyset<Entity extends ObjectLiteral, Row = Entity>(
  query: SelectQueryBuilder<Entity>,
  options: KeysetOptions<Row>,
  read: (query: SelectQueryBuilder<Entity>) => Promise<Row[]> = (q) =>
    q.getMany() as Promise<unknown> as Promise<Row[]>,
): Promise<KeysetPage<Row>> {
  const { columns } = options;
  const seek = openKeysetPage(options);
  if (seek.values) applySeek(query, columns, seek.values, seek.backward);
  columns.forEach((column, index) => {
    const direction = readOrder(column.direction, seek.backward);
    if (index === 0) query.orderBy(column.expression, direction);
    else query.addOrderBy(column.expression, direction);
  });
  query.limit(seek.take);
  options.beforeRead?.(seek);
  return closeKeysetPage(seek, await read(query), options);
}

/**
 * The seek a page request asks for (its cursor decoded and checked against the sort key's width),
 * for a listing that writes its own SQL: read `take` rows past `values` in the listing's order
 * (the opposite order when `backward`), then hand them to `closeKeysetPage`.
 */
export function openKeysetPage(
  options: Pick<KeysetOptions<unknown>, 'page' | 'columns' | 'listing' | 'cursors'>,
): KeysetSeek {
  const { page, columns, listing, cursors } = options;
  if (page.after && page.before) throw bothDirections();
  const backward = Boolean(page.before);
  const cursor = page.after ?? page.before;
  let values: KeysetValue[] | null = null;
  if (cursor) {
    const member = backward ? 'before' : 'after';
    values = cursors.decode(listing, cursor, member);
    if (values.length !== columns.length) throw invalidCursorIn(member);
  }
  return { values, backward, take: page.limit + 1 };
}

/** The page of the rows read for `seek`, in the listing's order, with its cursors. */
export function closeKeysetPage<Row>(
  seek: KeysetSeek,
  fetched: Row[],
  options: Pick<KeysetOptions<Row>, 'page' | 'keyOf' | 'listing' | 'cursors'>,
): KeysetPage<Row> {
  const { page, listing, cursors } = options;
  const hasMore = fetched.length > page.limit;
  const rows = fetched.slice(0, page.limit);
  if (seek.backward) rows.reverse();
  const first = rows[0];
  const last = rows[rows.length - 1];
  const encode = (row: Row | undefined) => (row ? cursors.encode(listing, options.keyOf(row)) : null);
  const continued = seek.values !== null;
  return seek.backward
    ? { rows, nextCursor: encode(last), previousCursor: hasMore ? encode(first) : null }
    : { rows, nextCursor: hasMore ? encode(last) : null, previousCursor: continued ? encode(first) : null };
}

function applySeek<Entity extends ObjectLiteral>(
  query: SelectQueryBuilder<Entity>,
  columns: KeysetColumn[],
  values: KeysetValue[],
  backward: boolean,
): void {
  const params = Object.fromEntries(values.map((value, index) => [`keyset_${index}`, value]));
  const comparator = (direction: 'ASC' | 'DESC') => seekComparator(readOrder(direction, backward));
  const uniform = columns.every((column) => column.direction === columns[0].direction);
  if (uniform) {
    // A row comparison lets PostgreSQL seek a composite index directly.
    const left = columns.map((column) => column.expression).join(', ');
    const right = columns.map((_, index) => `:keyset_${index}`).join(', ');
    query.andWhere(`(${left}) ${comparator(columns[0].direction)} (${right})`, params);
    return;
  }
  const branches = columns.map((column, index) => {
    const equalPrefix = columns.slice(0, index).map((previous, j) => `${previous.expression} = :keyset_${j}`);
    return [...equalPrefix, `${column.expression} ${comparator(column.direction)} :keyset_${index}`].join(
      ' AND ',
    );
  });
  query.andWhere(`(${branches.map((branch) => `(${branch})`).join(' OR ')})`, params);
}

/** The order a page reads its rows in: the listing's, reversed for a `before` cursor (`backward`). */
export function readOrder(direction: 'ASC' | 'DESC', backward: boolean): 'ASC' | 'DESC' {
  if (!backward) return direction;
  return direction === 'ASC' ? 'DESC' : 'ASC';
}

/** The comparison that seeks past a cursor's position for rows read in `order`. */
export function seekComparator(order: 'ASC' | 'DESC'): '>' | '<' {
  return order === 'ASC' ? '>' : '<';
}
