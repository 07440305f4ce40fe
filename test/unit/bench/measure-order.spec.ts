import { measurementGroups, roundOrder } from '../../../bench/measure-order';

describe('bench measurement order', () => {
  it('measures a scenario beside the one it is read against, even when listed apart', () => {
    const groups = measurementGroups([
      { name: 'health' },
      { name: 'first' },
      { name: 'other' },
      { name: 'deep', relativeTo: 'first' },
      { name: 'limiter', relativeTo: 'health' },
      { name: 'upload', relativeTo: 'health' },
    ]);
    expect(groups).toEqual([[0, 4, 5], [1, 3], [2]]);
  });

  it('joins chains of references into one group', () => {
    expect(
      measurementGroups([
        { name: 'a', relativeTo: 'b' },
        { name: 'c' },
        { name: 'b', relativeTo: 'd' },
        { name: 'd' },
      ]),
    ).toEqual([[0, 2, 3], [1]]);
  });

  it('ignores a reference to a scenario the run does not measure', () => {
    expect(measurementGroups([{ name: 'deep', relativeTo: 'first' }, { name: 'x' }])).toEqual([[0], [1]]);
  });

  it('reverses a group in even rounds, so no member always goes first', () => {
    expect(roundOrder(['a', 'b', 'c'], 1)).toEqual(['a', 'b', 'c']);
    expect(roundOrder(['a', 'b', 'c'], 2)).toEqual(['c', 'b', 'a']);
    expect(roundOrder(['a', 'b', 'c'], 3)).toEqual(['a', 'b', 'c']);
  });
});
