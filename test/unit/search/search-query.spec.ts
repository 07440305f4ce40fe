import { highlightOf, parseSearchQuery, UnsearchableQuery } from '../../../src/search/domain/search-query';

describe('parseSearchQuery (docs/decisions/0181-search-query-and-ranking.md)', () => {
  it.each<[string, { text: string; prefix: string | null; alternative: boolean; headRequired: boolean }]>([
    ['venue', { text: '', prefix: 'venue', alternative: false, headRequired: false }],
    ['venue cha', { text: 'venue', prefix: 'cha', alternative: false, headRequired: true }],
    ['venue cha ', { text: 'venue cha ', prefix: null, alternative: false, headRequired: false }],
    ['"venue cha"', { text: '"venue cha"', prefix: null, alternative: false, headRequired: false }],
    ['"venue cha', { text: '"venue cha', prefix: null, alternative: false, headRequired: false }],
    ['mill OR pla', { text: 'mill', prefix: 'pla', alternative: true, headRequired: false }],
    ['mill -base', { text: 'mill -base', prefix: null, alternative: false, headRequired: false }],
    ['mill OR', { text: 'mill OR', prefix: null, alternative: false, headRequired: false }],
    ['Café', { text: '', prefix: 'café', alternative: false, headRequired: false }],
    // Excluded words alone do not decide a match: the index reads by the prefix.
    ['-mill ven', { text: '-mill', prefix: 'ven', alternative: false, headRequired: false }],
    [
      '"venue change" mi',
      { text: '"venue change" mi', prefix: null, alternative: false, headRequired: false },
    ],
    // Shorter than SEARCH_LIMITS.minPrefix: a whole word, not a prefix.
    ['venue ch', { text: 'venue ch', prefix: null, alternative: false, headRequired: false }],
    ['ab', { text: 'ab', prefix: null, alternative: false, headRequired: false }],
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
