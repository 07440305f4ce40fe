import {
  applyFold,
  attachmentTokensOf,
  bareUrlsOf,
  displayTitleOf,
  excerptOf,
  FOLD_MARKER,
  slugOf,
  stripMarkdown,
} from '../../../src/posts/domain/post-text';

const MEDIA_A = `media_${'a'.repeat(32)}`;
/** No lone surrogate (String.prototype.isWellFormed is not in the ES2023 lib). */
function isWellFormed(text: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

const MEDIA_B = `media_${'0123456789abcdef'.repeat(2)}`;

describe('applyFold', () => {
  it('returns the whole body, not folded, without a marker', () => {
    expect(applyFold('hello\n\nworld')).toEqual({ body: 'hello\n\nworld', folded: false });
  });

  it('returns only the content above the marker, folded', () => {
    expect(applyFold(`above\n${FOLD_MARKER}\nbelow`)).toEqual({ body: 'above\n', folded: true });
  });

  it('cuts at the first of two markers', () => {
    expect(applyFold(`a${FOLD_MARKER}b${FOLD_MARKER}c`)).toEqual({ body: 'a', folded: true });
  });

  it('gives an empty body when the marker is at the start', () => {
    expect(applyFold(`${FOLD_MARKER}below`)).toEqual({ body: '', folded: true });
  });

  it('only recognises the exact marker', () => {
    expect(applyFold('a <!-- fold --> b').folded).toBe(false);
    expect(applyFold('a <!--FOLD--> b').folded).toBe(false);
  });
});

describe('stripMarkdown', () => {
  it.each([
    ['# Heading\n\nText', 'Heading Text'],
    ['## Closed heading ##', 'Closed heading'],
    ['# C#', 'C#'],
    ['#hashtag', '#hashtag'],
    ['Setext\n======', 'Setext'],
    ['Setext\n------\nnext', 'Setext next'],
    ['**bold** and __strong__ and *em* and _em_ and ~~gone~~', 'bold and strong and em and em and gone'],
    ['snake_case_name stays', 'snake_case_name stays'],
    ['2 * 3 = 6', '2 * 3 = 6'],
    ['~5 minutes', '~5 minutes'],
    ['use `npm install` now', 'use npm install now'],
    ['``code with ` tick``', 'code with ` tick'],
    ['```ts\nconst a = [1](2);\n```\nafter', 'const a = [1](2); after'],
    ['~~~\nunclosed fence', 'unclosed fence'],
    ['> quoted\n> > nested', 'quoted nested'],
    ['- one\n- two\n* three\n+ four', 'one two three four'],
    ['1. first\n2) second', 'first second'],
    ['- [ ] todo\n- [x] done', 'todo done'],
    ['see [the docs](https://example.com/docs "Title") here', 'see the docs here'],
    ['[**bold link**](https://a.example)', 'bold link'],
    ['[a [nested] text](https://a.example)', 'a [nested] text'],
    ['an image ![alt text](https://a.example/x.png) here', 'an image here'],
    [`inline ![](attachment://${MEDIA_A}) image`, 'inline image'],
    [`bare attachment://${MEDIA_A} token`, 'bare token'],
    ['[![badge](https://a.example/b.svg)](https://a.example)', ''],
    [
      'a [ref link][r] and [collapsed][] and [short]\n\n[r]: https://a.example\n[collapsed]: /x\n[short]: /y',
      'a ref link and collapsed and short',
    ],
    ['[not a link] stays', '[not a link] stays'],
    ['text <!-- hidden comment --> more', 'text more'],
    [`above ${FOLD_MARKER} below`, 'above below'],
    ['<div class="x">inside</div> <br/> after', 'inside after'],
    ['a < b and c > d', 'a < b and c > d'],
    ['autolink <https://a.example/x> kept', 'autolink https://a.example/x kept'],
    ['one\n\n---\n\n***\n\ntwo', 'one two'],
    ['| a | b |\n|---|:-:|\n| 1 | 2 |', 'a b 1 2'],
    ['escaped \\*stars\\* and \\[brackets\\]', 'escaped *stars* and [brackets]'],
    ['&amp; &lt;tag&gt; &#233; &#x1F600; &bogus;', '& <tag> é 😀 &bogus;'],
    ['  lots \n\n\t of   \r\n space  ', 'lots of space'],
    [
      'see https://a.example/_private_ and https://a.example/~a~~b**',
      'see https://a.example/_private and https://a.example/~a~~b',
    ],
    ['**https://a.example/x_y**.', 'https://a.example/x_y.'],
    ['[https://a.example/t](https://b.example)', 'https://a.example/t'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(stripMarkdown(input)).toBe(expected);
  });
});

describe('excerptOf', () => {
  it('is null for an empty or markup-only body', () => {
    expect(excerptOf('')).toBeNull();
    expect(excerptOf('   \n\n ')).toBeNull();
    expect(excerptOf(`![](attachment://${MEDIA_A})`)).toBeNull();
  });

  it('is null when the fold marker is at the start', () => {
    expect(excerptOf(`${FOLD_MARKER}\n\nonly below`)).toBeNull();
  });

  it('uses only the content above the fold', () => {
    expect(excerptOf(`**Above** the fold\n${FOLD_MARKER}\nSecret below`)).toBe('Above the fold');
  });

  it('keeps a short text whole', () => {
    const text = 'word '.repeat(56).trim(); // 279 characters
    expect(excerptOf(text)).toBe(text);
    const exact = 'x'.repeat(280);
    expect(excerptOf(exact)).toBe(exact);
  });

  it('cuts a long text at a word boundary with a trailing ellipsis, at most 280 characters', () => {
    const excerpt = excerptOf('lorem ipsum '.repeat(100)) as string;
    expect(Array.from(excerpt).length).toBeLessThanOrEqual(280);
    expect(excerpt.endsWith('…')).toBe(true);
    expect(excerpt).toMatch(/^(lorem ipsum )*lorem( ipsum)?…$/);
  });

  it('cuts a single long word hard', () => {
    const excerpt = excerptOf('a'.repeat(1000)) as string;
    expect(excerpt).toBe(`${'a'.repeat(279)}…`);
  });

  it('never splits a surrogate pair and counts code points', () => {
    const emoji = '😀'.repeat(300);
    const excerpt = excerptOf(emoji) as string;
    expect(Array.from(excerpt)).toHaveLength(280);
    expect(excerpt).toBe(`${'😀'.repeat(279)}…`);
    expect(isWellFormed(excerpt)).toBe(true);
    expect(excerptOf('😀'.repeat(280))).toBe('😀'.repeat(280));
  });

  it('never splits a grapheme cluster', () => {
    const family = '👨‍👩‍👧'; // 5 code points
    const excerpt = excerptOf(`${'x'.repeat(277)}${family}${'y'.repeat(10)}`) as string;
    expect(excerpt).toBe(`${'x'.repeat(277)}…`);
    expect(isWellFormed(excerpt)).toBe(true);
  });
});

describe('displayTitleOf', () => {
  it('is the title when there is one', () => {
    expect(displayTitleOf('My *title*', 'body text')).toBe('My *title*');
  });

  it('falls back to the stripped above-fold body without a title', () => {
    expect(displayTitleOf(null, '## Hello **world**')).toBe('Hello world');
    expect(displayTitleOf('', 'from body')).toBe('from body');
  });

  it('is never taken from below the fold', () => {
    expect(displayTitleOf(null, `${FOLD_MARKER}secret`)).toBeNull();
    expect(displayTitleOf(null, `<!-- c -->\n${FOLD_MARKER}secret`)).toBeNull();
    expect(displayTitleOf(null, `top${FOLD_MARKER}secret`)).toBe('top');
  });

  it('is null with neither title nor text', () => {
    expect(displayTitleOf(null, '')).toBeNull();
    expect(displayTitleOf(null, '---')).toBeNull();
  });

  it('is at most 80 characters, cut between words with an ellipsis', () => {
    const title = displayTitleOf(null, 'alpha beta gamma delta '.repeat(10)) as string;
    expect(Array.from(title).length).toBeLessThanOrEqual(80);
    expect(title.endsWith('…')).toBe(true);
    expect(title).not.toMatch(/\s…$/);
    expect(
      title
        .slice(0, -1)
        .split(' ')
        .every((word) => ['alpha', 'beta', 'gamma', 'delta'].includes(word)),
    ).toBe(true);
    const exact = 'b'.repeat(80);
    expect(displayTitleOf(null, exact)).toBe(exact);
    expect(displayTitleOf(null, 'é'.repeat(100))).toBe(`${'é'.repeat(79)}…`);
  });
});

describe('slugOf', () => {
  it.each<[string | null, string, string]>([
    ['Hello, World!', '', 'hello-world'],
    ['  Ünïcödé Àccents — déjà vu ', '', 'unicode-accents-deja-vu'],
    ['Straße & Æther Øresund Łódź', '', 'strasse-aether-oresund-lodz'],
    ['ＦＵＬＬ width', '', 'full-width'],
    ['日本語', 'Body text', 'body-text'],
    ['日本語', '日本語', 'post'],
    [null, '# A *markdown* [link](https://a.example)', 'a-markdown-link'],
    [null, `${FOLD_MARKER}below`, 'post'],
    [null, `above${FOLD_MARKER}below`, 'above'],
    [null, '', 'post'],
    ['---', '', 'post'],
    ['', 'from body', 'from-body'],
  ])('%j / %j → %j', (title, body, expected) => {
    expect(slugOf(title, body)).toBe(expected);
  });

  it('is at most 60 characters cut at a word boundary', () => {
    const slug = slugOf('the quick brown fox jumps over the lazy dog '.repeat(5), '');
    expect(slug.length).toBeLessThanOrEqual(60);
    expect(slug).toBe('the-quick-brown-fox-jumps-over-the-lazy-dog-the-quick-brown');
    expect(slugOf('x'.repeat(100), '')).toBe('x'.repeat(60));
    expect(slugOf(`${'y'.repeat(59)} z`, '')).toBe('y'.repeat(59));
  });

  it('is always lowercase ascii words joined by single hyphens', () => {
    for (const title of ['--a--b--', '!!!x!!!', 'A_B.C', 'Ǆ ǅ', '١٢٣ arabic digits']) {
      expect(slugOf(title, '')).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    }
  });
});

describe('attachmentTokensOf', () => {
  it('lists well-formed ids in order of first appearance without duplicates', () => {
    const body = `![](attachment://${MEDIA_B}) text attachment://${MEDIA_A} and ![x](attachment://${MEDIA_B})`;
    expect(attachmentTokensOf(body)).toEqual([MEDIA_B, MEDIA_A]);
  });

  it('ignores malformed ids', () => {
    const body = [
      `attachment://media_${'A'.repeat(32)}`,
      `attachment://media_${'a'.repeat(31)}`,
      `attachment://media_${'a'.repeat(33)}`,
      `attachment://media_${'a'.repeat(32)}_x`,
      `attachment://${'a'.repeat(32)}`,
      `attachment:/media_${'a'.repeat(32)}`,
    ].join(' ');
    expect(attachmentTokensOf(body)).toEqual([]);
  });

  it('accepts an id followed by punctuation', () => {
    expect(attachmentTokensOf(`(attachment://${MEDIA_A}).`)).toEqual([MEDIA_A]);
    expect(attachmentTokensOf('')).toEqual([]);
  });
});

describe('bareUrlsOf', () => {
  it('lists bare http(s) URLs in order of first appearance without duplicates', () => {
    const body = 'See https://b.example/x then http://a.example and https://b.example/x again';
    expect(bareUrlsOf(body)).toEqual(['https://b.example/x', 'http://a.example']);
  });

  it('ignores other schemes', () => {
    expect(bareUrlsOf('ftp://a.example mailto:a@b.example javascript:alert(1) attachment://x')).toEqual([]);
  });

  it.each([
    ['Visit https://a.example.', 'https://a.example'],
    ['Visit https://a.example/path, then', 'https://a.example/path'],
    ['Wow https://a.example!', 'https://a.example'],
    ['Really https://a.example/?', 'https://a.example/'],
    ['query https://a.example/?q=1&r=2 kept', 'https://a.example/?q=1&r=2'],
    ['(see https://a.example/x)', 'https://a.example/x'],
    ['https://en.wikipedia.org/wiki/Foo_(bar)', 'https://en.wikipedia.org/wiki/Foo_(bar)'],
    ['(https://en.wikipedia.org/wiki/Foo_(bar))', 'https://en.wikipedia.org/wiki/Foo_(bar)'],
    ['**https://a.example/bold**', 'https://a.example/bold'],
    ['"https://a.example/quoted"', 'https://a.example/quoted'],
    ['autolink <https://a.example/auto>', 'https://a.example/auto'],
    ['line https://a.example/end\nnext', 'https://a.example/end'],
    ['HTTPS://A.example/Case', 'HTTPS://A.example/Case'],
  ])('%j → %j', (body, url) => {
    expect(bareUrlsOf(body)).toEqual([url]);
  });

  it('excludes link targets, link texts, images, definitions, code and HTML attributes', () => {
    const body = [
      '[text](https://link.example/target)',
      '[https://text.example](https://link.example/2)',
      '![alt](https://img.example/x.png)',
      '[ref][r]',
      '[r]: https://def.example',
      '`https://code.example`',
      '```\nhttps://fence.example\n```',
      '    ',
      '<a href="https://href.example">x</a>',
      'and finally https://bare.example/ok',
    ].join('\n');
    expect(bareUrlsOf(body)).toEqual(['https://bare.example/ok']);
  });

  it('needs a host and a word boundary before the scheme', () => {
    expect(bareUrlsOf('https:// nothing, https://. and xhttps://a.example')).toEqual([]);
  });

  it('is empty for a body without URLs', () => {
    expect(bareUrlsOf('')).toEqual([]);
    expect(bareUrlsOf('plain text')).toEqual([]);
  });
});

describe('adversarial inputs finish in linear time', () => {
  const n = 100_000;
  const inputs: [string, string][] = [
    ['[', '['.repeat(n)],
    [']', ']'.repeat(n)],
    ['[](', '[]('.repeat(n / 3)],
    ['](', ']('.repeat(n / 2)],
    ['*', '*'.repeat(n)],
    ['_a', '_a'.repeat(n / 2)],
    ['![', '!['.repeat(n / 2)],
    ['`', '`'.repeat(n)],
    ['` ``', '` ``'.repeat(n / 4)],
    ['<', '<'.repeat(n)],
    ['<a', '<a'.repeat(n / 2)],
    ['<!--', '<!--'.repeat(n / 4)],
    ['<http:', '<http:'.repeat(n / 6)],
    ['http:// a', `http://${'a'.repeat(n)}`],
    ['http://', 'http://'.repeat(n / 7)],
    ['url + dots', `https://a.example/${'.'.repeat(n)}`],
    ['url + parens', `https://a.example/${')'.repeat(n)}`],
    ['url + entities', `https://a.example/${'&a;'.repeat(n / 3)}`],
    ['#', '#'.repeat(n)],
    ['> ', '> '.repeat(n / 2)],
    ['newlines', '\n'.repeat(n)],
    ['lines of [', '[\n'.repeat(n / 2)],
    ['fences', '```\n'.repeat(n / 4)],
    ['spaces', ' '.repeat(n)],
    ['&#', '&#'.repeat(n / 2)],
    ['table', '|'.repeat(n)],
    ['attachment', 'attachment://media_'.repeat(n / 19)],
    ['mixed', '[*_`<!(http://'.repeat(n / 14)],
    ['hostless URLs', 'https://.'.repeat(n / 9)],
    ['URLs with hostless tails', `https://a${'https://.'.repeat(n / 9)}`],
    ['nested brackets', `${'['.repeat(n / 2)}${']'.repeat(n / 2)}`],
    ['nested brackets with a definition', `[x]: /y\n\n${'['.repeat(n / 2)}${']'.repeat(n / 2)}`],
    ['nested links', `${'[a'.repeat(n / 6)}${'](b)'.repeat(n / 6)}`],
    ['nested parens', `[a](${'('.repeat(n / 2)}${')'.repeat(n / 2)}`],
    ['nested images', `${'![a'.repeat(n / 6)}${'](b)'.repeat(n / 6)}`],
    ['emphasis runs', '**a'.repeat(n / 3)],
    ['code runs of growing length', Array.from({ length: 400 }, (_, i) => '`'.repeat(i + 1)).join('a')],
  ];

  it.each(inputs)('%s', (_name, body) => {
    const started = process.hrtime.bigint();
    stripMarkdown(body);
    excerptOf(body);
    displayTitleOf(null, body);
    slugOf(null, body);
    attachmentTokensOf(body);
    bareUrlsOf(body);
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    // Quadratic behaviour on 100k characters takes many seconds; linear takes a few milliseconds.
    expect(elapsedMs).toBeLessThan(2000);
  });
});
