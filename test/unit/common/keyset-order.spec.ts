import { readOrder, seekComparator } from '../../../src/common/pagination/keyset';
import { directoryPageStatement } from '../../../src/spaces/repositories/spaces.repository';
import { productCardsPageStatement } from '../../../src/store/repositories/products.repository';

describe('keyset read order (design.md §7: a before cursor reads the listing backward)', () => {
  it('keeps the listing order forward and reverses it backward', () => {
    expect(readOrder('DESC', false)).toBe('DESC');
    expect(readOrder('ASC', false)).toBe('ASC');
    expect(readOrder('DESC', true)).toBe('ASC');
    expect(readOrder('ASC', true)).toBe('DESC');
  });

  it('seeks past a position with > when reading ascending and < when descending', () => {
    expect(seekComparator('ASC')).toBe('>');
    expect(seekComparator('DESC')).toBe('<');
  });

  it('turns the directory (newest activity first) around for a before cursor', () => {
    const values = ['2026-11-24T06:53:49.000Z', '2c34309c-35b1-afc1-3d9b-be4dfa87c4bf'];
    const forward = directoryPageStatement({}, { values, backward: false, take: 21 }).sql;
    const backward = directoryPageStatement({}, { values, backward: true, take: 21 }).sql;
    expect(forward).toContain('("last_activity_at", "id") < ($1, $2)');
    expect(forward).toMatch(/ORDER BY "last_activity_at" DESC, "id" DESC LIMIT \$3$/);
    expect(backward).toContain('("last_activity_at", "id") > ($1, $2)');
    expect(backward).toMatch(/ORDER BY "last_activity_at" ASC, "id" ASC LIMIT \$3$/);
  });

  it('turns the product listing (sort order ascending) around for a before cursor', () => {
    const values = [3, '2c34309c-35b1-afc1-3d9b-be4dfa87c4bf'];
    const forward = productCardsPageStatement('s', { values, backward: false, take: 21 }).sql;
    const backward = productCardsPageStatement('s', { values, backward: true, take: 21 }).sql;
    expect(forward).toContain('(sort_order, id) > ($2, $3) ORDER BY sort_order ASC, id ASC LIMIT $4');
    expect(backward).toContain('(sort_order, id) < ($2, $3) ORDER BY sort_order DESC, id DESC LIMIT $4');
  });
});
