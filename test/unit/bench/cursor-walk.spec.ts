import { walkCursors, type PageEnvelope } from '../../../bench/cursor-walk';

/** A listing of `total` numbered items, `size` per page, cursors naming the next offset. */
function listing(total: number, size: number) {
  const calls: (string | null)[] = [];
  const fetchPage = async (cursor: string | null): Promise<PageEnvelope<number>> => {
    calls.push(cursor);
    const from = cursor === null ? 0 : Number(cursor.slice(1));
    const items = Array.from({ length: Math.max(0, Math.min(size, total - from)) }, (_, i) => from + i);
    return { items, nextCursor: from + size < total ? `c${from + size}` : null };
  };
  return { fetchPage, calls };
}

describe('walkCursors', () => {
  it('follows nextCursor through `depth` pages and returns the cursor of the next one', async () => {
    const { fetchPage, calls } = listing(1000, 100);
    const walk = await walkCursors(fetchPage, 5);
    expect(walk).toEqual({ cursor: 'c500', pages: 5, items: 500, lastItem: 499 });
    expect(calls).toEqual([null, 'c100', 'c200', 'c300', 'c400']);
  });

  it('fails when the listing ends before the depth (it would measure a shallower page)', async () => {
    await expect(walkCursors(listing(450, 100).fetchPage, 5)).rejects.toThrow(
      'the listing ends after 5 pages (450 items); 5 needed',
    );
    await expect(walkCursors(listing(250, 100).fetchPage, 5)).rejects.toThrow(
      'the listing ends after 3 pages',
    );
  });

  it('refuses empty pages, repeated cursors and a depth below 1', async () => {
    await expect(walkCursors(async () => ({ items: [], nextCursor: 'x' }), 2)).rejects.toThrow(
      'page 1 is empty',
    );
    await expect(walkCursors(async () => ({ items: [1], nextCursor: 'same' }), 3)).rejects.toThrow(
      'page 2 repeats an earlier cursor',
    );
    await expect(walkCursors(listing(10, 1).fetchPage, 0)).rejects.toThrow(RangeError);
  });
});
