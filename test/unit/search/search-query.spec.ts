import { highlightOf, parseSearchQuery, UnsearchableQuery } from '../../../src/search/domain/search-query';

describe('parseSearchQuery (docs/decisions/0181-search-query-and-ranking.md)', () => {
  it.each<[string, { text: string; prefix: string | null; alternative: boolean }]>([
    ['venue', { text: '', prefix: 'venue', alternative: false }],
    ['venue cha', { text: 'venue', prefix: 'cha', alternative: false }],
    ['venue cha ', { text: 'venue cha ', prefix: null, alternative: false }],
    ['"venue cha"', { text: '"venue cha"', prefix: null, alternative: false }],
    ['"venue cha', { text: '"venue cha', prefix: null, alternative: false }],
    ['mill OR pla', { text: 'mill', prefix: 'pla', alternative: true }],
    ['mill -base', { text: 'mill -base', prefix: null, alternative: false }],
    ['mill OR', { text: 'mill OR', prefix: null, alternative: false }],
    ['Café', { text: '', prefix: 'café', alternative: false }],
  ])('%j runs as %j', (q, parsed) => {
    expect(parseSearchQuery(q)).toEqual(parsed);
  });

  it.each(['', '?!', '-a -b', 'a'.repeat(201), 'a b c d e f g h i'])('refuses %j', (q) => {
    expect(() => parseSearchQuery(q)).toThrow(UnsearchableQuery);
  });

  it('does not count OR as a word', () => {
    expect(() => parseSearchQuery('a OR b OR c OR d OR e OR f OR g OR h')).not.toThrow();
  });
});

describe('highlightOf', () => {
  it('turns the marks into offsets in UTF-16 code units', () => {
    expect(highlightOf('the \u0002café\u0003 by the \u0002mill\u0003')).toEqual({
      text: 'the café by the mill',
      matches: [
        { start: 4, end: 8 },
        { start: 16, end: 20 },
      ],
    });
    expect(highlightOf('🎉 \u0002mill\u0003')).toEqual({ text: '🎉 mill', matches: [{ start: 3, end: 7 }] });
  });

  it('trims the passage and moves the offsets with it', () => {
    expect(highlightOf('  \u0002mill\u0003 ')).toEqual({ text: 'mill', matches: [{ start: 0, end: 4 }] });
  });
});
