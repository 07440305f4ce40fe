import { etagMatches, rangeOf } from '../../../src/media/domain/byte-range';

describe('Range headers (RFC 9110 §14)', () => {
  it('reads one range of each form, clamped to the file', () => {
    expect(rangeOf('bytes=0-9', 100)).toEqual({ kind: 'partial', range: { start: 0, end: 9 } });
    expect(rangeOf('bytes=90-', 100)).toEqual({ kind: 'partial', range: { start: 90, end: 99 } });
    expect(rangeOf('bytes=-10', 100)).toEqual({ kind: 'partial', range: { start: 90, end: 99 } });
    expect(rangeOf('bytes=-1000', 100)).toEqual({ kind: 'partial', range: { start: 0, end: 99 } });
    expect(rangeOf('bytes=50-5000', 100)).toEqual({ kind: 'partial', range: { start: 50, end: 99 } });
  });

  it('knows what cannot be served: a start past the end, a zero suffix, any range of an empty file', () => {
    expect(rangeOf('bytes=100-', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(rangeOf('bytes=100-200', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(rangeOf('bytes=-0', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(rangeOf('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(rangeOf('bytes=-5', 0)).toEqual({ kind: 'unsatisfiable' });
  });

  it('ignores what it does not serve: no header, other units, several ranges, nonsense', () => {
    for (const header of [
      undefined,
      'items=0-1',
      'bytes=0-1,5-6',
      'bytes=-',
      'bytes=a-b',
      'bytes=9-1',
      'bytes=1234567890123456-',
    ]) {
      expect(rangeOf(header, 100)).toEqual({ kind: 'whole' });
    }
  });

  it('matches If-None-Match against an ETag, weak forms and * included', () => {
    expect(etagMatches('"a"', '"a"')).toBe(true);
    expect(etagMatches('"b", W/"a"', '"a"')).toBe(true);
    expect(etagMatches('*', '"a"')).toBe(true);
    expect(etagMatches('"b"', '"a"')).toBe(false);
    expect(etagMatches(undefined, '"a"')).toBe(false);
  });
});
