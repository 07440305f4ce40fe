import { highlightIn, parseSearchQuery, UnsearchableQuery } from '../../../src/search/domain/search-query';

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

describe('highlightIn', () => {
  const marked = (document: string, q: string) => {
    const { text, matches } = highlightIn(document, parseSearchQuery(q));
    return { text, marked: matches.map((match) => text.slice(match.start, match.end)), matches };
  };

  it('marks the query words with offsets in UTF-16 code units, case and accents folded both ways', () => {
    expect(highlightIn('🎉 the Café by the mill.', parseSearchQuery('cafe mill '))).toEqual({
      text: '🎉 the Café by the mill.',
      matches: [
        { start: 7, end: 11 },
        { start: 19, end: 23 },
      ],
    });
    expect(marked('a café, a CAFE and a cafe\u0301', 'CAFÉ ').marked).toEqual(['café', 'CAFE', 'cafe\u0301']);
    expect(marked('Straße and strasse', 'strasse ').marked).toEqual(['Straße', 'strasse']);
  });

  it('marks the words the last word starts while it is typed, and only whole words once it is not', () => {
    expect(marked('a meeting to meet at the meetup', 'meet').marked).toEqual(['meeting', 'meet', 'meetup']);
    expect(marked('a meeting to meet at the meetup', 'meet ').marked).toEqual(['meet']);
  });

  it('marks neither excluded words, nor an excluded phrase, nor OR', () => {
    expect(marked('garden or lantern, or a mill', 'garden OR mill -lantern ').marked).toEqual([
      'garden',
      'mill',
    ]);
    expect(marked('venue change and the venue', 'venue -"the venue" ').marked).toEqual(['venue', 'venue']);
    expect(marked('the venue-change', 'venue-change ').marked).toEqual(['venue', 'change']);
  });

  it('shows the passage of 24 words holding the most terms, from a few words before its first match', () => {
    const words = Array.from({ length: 60 }, (_, index) => `w${index}`);
    words[10] = 'mill';
    words[40] = 'mill';
    words[44] = 'lantern';
    const { text, marked: found } = marked(words.join(' '), 'mill lantern ');
    expect(text.split(' ')).toEqual(words.slice(36, 60));
    expect(found).toEqual(['mill', 'lantern']);
  });

  it('shows the start of a document with no marked word, trimmed', () => {
    expect(highlightIn('  just text here ', parseSearchQuery('else '))).toEqual({
      text: 'just text here',
      matches: [],
    });
    expect(highlightIn(' … ', parseSearchQuery('else '))).toEqual({ text: '…', matches: [] });
  });
});
