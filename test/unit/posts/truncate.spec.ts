import { truncate } from '../../../src/posts/domain/post-text';

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** `truncate` as it was before it segmented only near the cut: the reference for its output. */
function referenceTruncate(text: string, max: number): string {
  const codePoints = Array.from(text);
  if (codePoints.length <= max) return text;
  const budget = max - 1;
  const window = codePoints.slice(0, budget + 16).join('');
  let cut = '';
  let used = 0;
  for (const { segment } of graphemes.segment(window)) {
    const size = Array.from(segment).length;
    if (used + size > budget) break;
    cut += segment;
    used += size;
  }
  const next = codePoints[used] ?? '';
  if (!/\s/.test(next)) {
    const lastSpace = cut.search(/\s\S*$/);
    if (lastSpace > 0 && Array.from(cut.slice(0, lastSpace)).length >= budget / 2)
      cut = cut.slice(0, lastSpace);
  }
  cut = cut.trimEnd().replace(/[\s,;:]+$/, '');
  return `${cut}…`;
}

/** Deterministic pseudo-random numbers (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Pieces whose grapheme boundaries depend on their neighbours. */
const PIECES = [
  'a',
  'word',
  ' ',
  '  ',
  ',',
  ';',
  ':',
  '\t',
  '\n',
  '\r\n',
  '\r',
  'é', // precomposed
  'e\u0301', // combining acute
  '\u0301', // a combining mark alone
  'a\u0308\u0323\u0301', // stacked marks
  '😀',
  '👍🏽', // skin tone modifier
  '👨‍👩‍👧‍👦', // ZWJ family
  '🏳️‍🌈', // ZWJ flag with variation selector
  '\u200d', // a lone ZWJ
  '🇫🇷', // regional indicator pair
  '🇫', // a lone regional indicator (pairs shift with parity)
  '\ud83d', // a lone high surrogate
  '\ude00', // a lone low surrogate
  '한', // precomposed Hangul syllable
  '\u1100\u1161\u11a8', // conjoining jamo
  'क्‍ष', // Devanagari conjunct with ZWJ
  'क्ष', // Devanagari conjunct (Indic conjunct break rule)
  'ि', // spacing mark
  '\u0600', // prepend (Arabic number sign)
  '\u00ad', // soft hyphen (control)
  '\u00a0', // no-break space
  '\u3000', // ideographic space
  '漢字',
  '#️⃣', // keycap
  '©️',
  '~',
];

function randomText(next: () => number, pieces: number): string {
  let text = '';
  for (let count = 0; count < pieces; count += 1) text += PIECES[Math.floor(next() * PIECES.length)];
  return text;
}

describe('truncate segments only near the cut, with the same output as a whole-window pass', () => {
  const limits = [1, 2, 3, 5, 10, 80, 280];

  it('agrees on short strings, strings at the limit and strings one past it', () => {
    const cases = ['', 'a', 'ab', 'abc', 'a b', ' ', '  a', 'word word', '😀😀', '🇫🇷🇩🇪', 'e\u0301e\u0301'];
    for (const max of limits) {
      for (const text of cases) expect(truncate(text, max)).toBe(referenceTruncate(text, max));
      for (const unit of ['a', ' ', '😀', 'e\u0301', '🇫']) {
        for (const length of [max - 1, max, max + 1, max + 2]) {
          const text = unit.repeat(Math.max(0, length));
          expect(truncate(text, max)).toBe(referenceTruncate(text, max));
        }
      }
    }
  });

  it('agrees when each tricky sequence straddles the cut at every offset', () => {
    for (const max of [80, 280]) {
      for (const piece of PIECES) {
        const sequence = piece.repeat(4);
        for (let shift = 0; shift < 24; shift += 1) {
          for (const filler of ['x', ' ', 'word ']) {
            const prefix = filler.repeat(max).slice(0, max - 12 + shift);
            const text = `${prefix}${sequence}${'tail '.repeat(10)}`;
            expect(truncate(text, max)).toBe(referenceTruncate(text, max));
          }
        }
      }
    }
  });

  it('agrees on long runs of regional indicators and combining marks across the cut', () => {
    for (const max of [80, 280]) {
      for (const lead of ['', 'a', '🇫', 'a ']) {
        for (const run of ['🇫', '\u0301', '\u200d😀', '🏽']) {
          const text = lead + run.repeat(max + 40);
          expect(truncate(text, max)).toBe(referenceTruncate(text, max));
        }
      }
    }
  });

  it('agrees on thousands of random mixes of the tricky pieces', () => {
    const next = random(12);
    for (let round = 0; round < 3000; round += 1) {
      const max = limits[Math.floor(next() * limits.length)];
      const text = randomText(next, Math.floor(next() * (max * 1.5 + 10)));
      expect({ text, max, cut: truncate(text, max) }).toEqual({
        text,
        max,
        cut: referenceTruncate(text, max),
      });
    }
  });

  it('agrees on 100 KB strings, and takes about as long as on a string just past the limit', () => {
    const bodies = [
      'lorem ipsum dolor '.repeat(6000),
      'x'.repeat(100_000),
      '😀 e\u0301 🇫🇷 '.repeat(10_000),
      randomText(random(7), 30_000),
    ];
    for (const body of bodies) {
      for (const max of [80, 280]) expect(truncate(body, max)).toBe(referenceTruncate(body, max));
    }
    // The best of five rounds, so a pause of a loaded machine does not count.
    const timeOf = (text: string) => {
      let best = Infinity;
      for (let round = 0; round < 5; round += 1) {
        const started = process.hrtime.bigint();
        for (let call = 0; call < 500; call += 1) truncate(text, 280);
        best = Math.min(best, Number(process.hrtime.bigint() - started));
      }
      return best;
    };
    const short = '😀 e\u0301 🇫🇷 '.repeat(40);
    // Walking or segmenting the whole 100 KB body would cost hundreds of times the short one.
    expect(timeOf(bodies[2])).toBeLessThan(timeOf(short) * 5);
  });
});
