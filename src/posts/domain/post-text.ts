/**
 * Pure text rules of posts (api-spec.md "Post card", "Full post"). CONTRACT: the posts service
 * calls these signatures; implementations may improve but signatures stay.
 *
 * Everything here runs in time linear in the body: no regular expression can backtrack over more
 * than a bounded window, and the markdown scanner precomputes bracket, parenthesis and code-span
 * matches with stacks instead of searching forward from every candidate.
 */

/** The fold marker: a body returns only what is above it (api-spec.md "Fold rule"). */
export const FOLD_MARKER = '<!--fold-->';

/** Longest excerpt, in code points (the trailing '…' included). */
const EXCERPT_MAX = 280;
/** Longest display title made from the body, in code points (the trailing '…' included). */
const DISPLAY_TITLE_MAX = 80;
/** Longest generated slug. */
const SLUG_MAX = 60;

export interface FoldedBody {
  /** The body as returned: above the fold when a marker is present, else whole. */
  body: string;
  /** True only when a fold marker truncated the body. */
  folded: boolean;
}

/** Applies the fold rule to a stored body: everything from the first marker on is dropped. */
export function applyFold(body: string): FoldedBody {
  const at = body.indexOf(FOLD_MARKER);
  return at === -1 ? { body, folded: false } : { body: body.slice(0, at), folded: true };
}

/** Truncated markdown-stripped preview of the above-fold body; null when nothing is left. */
export function excerptOf(body: string): string | null {
  const text = stripMarkdown(applyFold(body).body);
  return text ? truncate(text, EXCERPT_MAX) : null;
}

/** The title, else a short markdown-stripped excerpt of the above-fold body, else null. */
export function displayTitleOf(title: string | null, body: string): string | null {
  if (title !== null && title.trim() !== '') return title;
  const text = stripMarkdown(applyFold(body).body);
  return text ? truncate(text, DISPLAY_TITLE_MAX) : null;
}

/**
 * A server-generated slug from the title, else the above-fold body's text: lowercase ascii words
 * joined by '-', accents folded, at most 60 characters cut between words, never empty ('post').
 */
export function slugOf(title: string | null, body: string): string {
  if (title !== null && title.trim() !== '') {
    const fromTitle = slugWords(title);
    if (fromTitle) return fromTitle;
  }
  return slugWords(stripMarkdown(applyFold(body).body)) || 'post';
}

export { attachmentTokensOf } from '../../media';

/**
 * Bare http(s) URLs of a (returned) body, in order of first appearance, without duplicates. A bare
 * URL is one written as text: plain or as an autolink `<https://…>`. Targets and texts of markdown
 * links and images, reference definitions, code spans, code blocks and HTML tags are not bare.
 * Trailing punctuation (`.,:;!?*_~'"`, an unbalanced `)` or `]`) is not part of the URL.
 */
export function bareUrlsOf(body: string): string[] {
  const text = scanMarkdown(body, 'mask');
  const urls: string[] = [];
  for (const match of text.matchAll(/(?<![A-Za-z0-9])https?:\/\/[^\s<>"`]+/gi)) {
    const url = trimUrl(match[0]);
    if (url !== null) urls.push(url);
  }
  return [...new Set(urls)];
}

/** Plain text of markdown, whitespace collapsed. Images and HTML are dropped; code text is kept. */
export function stripMarkdown(markdown: string): string {
  return scanMarkdown(markdown, 'strip');
}

// ---------------------------------------------------------------------------------------------
// Truncation and slugs

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** Context the cut's segmentation reads past the budget (the window earlier versions segmented). */
const CUT_LOOKAHEAD = 16;

/**
 * At most `max` code points: cut between words when a space falls in the second half, never inside
 * a grapheme cluster (so never inside a surrogate pair), with '…' appended when cut. Only the
 * code points up to the cut are walked, and graphemes are segmented only around it: between two
 * printable ASCII characters there is always a boundary (UAX #29), elsewhere ICU finds the
 * cluster holding the first code point past the budget from a safe point nearby.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const budget = max - 1;
  const budgetEnd = advanceCodePoints(text, 0, budget);
  const maxEnd = advanceCodePoints(text, budgetEnd, 1);
  if (maxEnd === text.length) return text;
  // The longest run of whole grapheme clusters that fits the budget.
  const start = asciiBoundary(text, budgetEnd)
    ? budgetEnd
    : graphemes
        .segment(text.slice(0, advanceCodePoints(text, maxEnd, CUT_LOOKAHEAD - 1)))
        .containing(budgetEnd)!.index;
  let cut = text.slice(0, start);
  if (!/\s/.test(text[start])) {
    const lastSpace = cut.search(/\s\S*$/);
    if (lastSpace > 0 && Array.from(cut.slice(0, lastSpace)).length >= budget / 2)
      cut = cut.slice(0, lastSpace);
  }
  cut = cut.trimEnd().replace(/[\s,;:]+$/, '');
  return `${cut}…`;
}

/** The offset `count` code points (a lone surrogate counts as one) after `from`, at most the end. */
function advanceCodePoints(text: string, from: number, count: number): number {
  let at = from;
  for (let left = count; left > 0 && at < text.length; left -= 1) {
    const unit = text.charCodeAt(at);
    const low = text.charCodeAt(at + 1);
    at += unit >= 0xd800 && unit <= 0xdbff && low >= 0xdc00 && low <= 0xdfff ? 2 : 1;
  }
  return at;
}

/** Whether printable ASCII characters sit on both sides of `at` (a grapheme boundary, always). */
function asciiBoundary(text: string, at: number): boolean {
  const isPrintable = (unit: number) => unit >= 0x20 && unit <= 0x7e;
  return at > 0 && isPrintable(text.charCodeAt(at - 1)) && isPrintable(text.charCodeAt(at));
}

/** Letters without a decomposition to ASCII. */
const FOLDED_LETTERS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ł: 'l',
  ı: 'i',
  ħ: 'h',
  ŋ: 'n',
};

/** Lowercase ascii words joined by '-', at most SLUG_MAX characters cut between words; '' if none. */
function slugWords(source: string): string {
  const folded = source
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[ßæœøđðþłıħŋ]/g, (letter) => FOLDED_LETTERS[letter] ?? '');
  let slug = '';
  for (const word of folded.split(/[^a-z0-9]+/)) {
    if (!word) continue;
    if (!slug) {
      slug = word.slice(0, SLUG_MAX);
      continue;
    }
    if (slug.length + 1 + word.length > SLUG_MAX) break;
    slug += `-${word}`;
  }
  return slug;
}

// ---------------------------------------------------------------------------------------------
// URLs

const TRAILING_URL_PUNCTUATION = '.,:;!?*_~\'"';

/** A matched URL without trailing punctuation; null when no host is left. */
function trimUrl(candidate: string): string | null {
  let opens = 0;
  let closes = 0;
  let squareOpens = 0;
  let squareCloses = 0;
  for (const char of candidate) {
    if (char === '(') opens += 1;
    else if (char === ')') closes += 1;
    else if (char === '[') squareOpens += 1;
    else if (char === ']') squareCloses += 1;
  }
  // Trimmed by moving `end` only, so that a long tail of punctuation stays linear.
  let end = candidate.length;
  while (end > 0) {
    const last = candidate[end - 1];
    const entity =
      last === ';' ? /&[A-Za-z0-9#]{1,32};$/.exec(candidate.slice(Math.max(0, end - 34), end)) : null;
    if (entity) {
      end -= entity[0].length;
    } else if (TRAILING_URL_PUNCTUATION.includes(last)) {
      end -= 1;
    } else if (last === ')' && closes > opens) {
      end -= 1;
      closes -= 1;
    } else if (last === ']' && squareCloses > squareOpens) {
      end -= 1;
      squareCloses -= 1;
    } else {
      break;
    }
  }
  const url = candidate.slice(0, end);
  const host = /^https?:\/\/([^/?#]*)/i.exec(url)?.[1] ?? '';
  const hostname = host.replace(/^[^@]*@/, '').replace(/:\d*$/, '');
  if (!/[A-Za-z0-9]/.test(hostname)) return null;
  return url;
}

// ---------------------------------------------------------------------------------------------
// The markdown scanner

/**
 * 'strip' gives the plain text of the markdown, whitespace collapsed. 'mask' gives the text with
 * every region that cannot hold a bare URL (code, links, images, reference definitions, HTML tags
 * and comments) replaced by a space and everything else verbatim, autolinks as their URL.
 */
type ScanMode = 'strip' | 'mask';

interface Segment {
  code: boolean;
  lines: string[];
}

function scanMarkdown(markdown: string, mode: ScanMode): string {
  const { segments, labels } = blocksOf(markdown.replace(/\r\n?/g, '\n'), mode);
  const parts: string[] = [];
  for (const segment of segments) {
    if (segment.code) parts.push(mode === 'strip' ? segment.lines.join('\n') : ' ');
    else parts.push(inline(segment.lines.join('\n'), mode, labels));
  }
  const text = parts.join('\n');
  if (mode === 'mask') return text;
  return decodeEntities(text.replace(/attachment:\/\/\S*/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

function isBlank(line: string): boolean {
  return line.trim() === '';
}

/** Leading spaces and tabs (a tab counts as 4 columns). */
function indentOf(line: string): { columns: number; chars: number } {
  let columns = 0;
  let chars = 0;
  while (chars < line.length && (line[chars] === ' ' || line[chars] === '\t')) {
    columns += line[chars] === '\t' ? 4 : 1;
    chars += 1;
  }
  return { columns, chars };
}

/** Removes up to `limit` blockquote markers; returns the rest and how many were removed. */
function stripQuotes(line: string, limit = Infinity): { rest: string; depth: number } {
  let rest = line;
  let depth = 0;
  while (depth < limit) {
    const { columns, chars } = indentOf(rest);
    if (columns > 3 || rest[chars] !== '>') break;
    rest = rest.slice(chars + 1);
    if (rest[0] === ' ') rest = rest.slice(1);
    depth += 1;
  }
  return { rest, depth };
}

/** An opening code fence: its character and length, or null. */
function fenceOf(line: string): { char: string; length: number } | null {
  const { columns, chars } = indentOf(line);
  if (columns > 3) return null;
  const char = line[chars];
  if (char !== '`' && char !== '~') return null;
  let end = chars;
  while (line[end] === char) end += 1;
  const length = end - chars;
  if (length < 3) return null;
  if (char === '`' && line.includes('`', end)) return null;
  return { char, length };
}

function closesFence(line: string, fence: { char: string; length: number }): boolean {
  const { columns, chars } = indentOf(line);
  if (columns > 3) return false;
  let end = chars;
  while (line[end] === fence.char) end += 1;
  return end - chars >= fence.length && line.slice(end).trim() === '';
}

/** A thematic break, setext underline or table delimiter row: nothing to show. */
function isRuleLine(line: string): boolean {
  const trimmed = line.trim();
  if (!trimmed) return false;
  let only: string | null = null;
  let count = 0;
  let sameOnly = true;
  let tableChars = true;
  let dashes = 0;
  let pipes = 0;
  for (const char of trimmed) {
    if (char === ' ' || char === '\t') continue;
    if (only === null) only = char;
    if (char !== only) sameOnly = false;
    count += 1;
    if (char === '-') dashes += 1;
    else if (char === '|') pipes += 1;
    else if (char !== ':') tableChars = false;
  }
  if (sameOnly && count >= 3 && (only === '-' || only === '*' || only === '_')) return true;
  if (sameOnly && only === '=') return true;
  return tableChars && dashes > 0 && pipes > 0;
}

/** `[label]: destination "title"`: the normalised label, or null. */
function referenceLabelOf(line: string): string | null {
  const { columns, chars } = indentOf(line);
  if (columns > 3 || line[chars] !== '[' || line[chars + 1] === '^') return null;
  const close = line.indexOf(']:', chars + 1);
  if (close === -1) return null;
  const label = line.slice(chars + 1, close);
  if (!label.trim() || label.includes('[') || label.includes(']')) return null;
  return normaliseLabel(label);
}

function normaliseLabel(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Removes a heading's hashes, a list marker and a task box from a line. */
function stripLinePrefixes(line: string): string {
  const { columns, chars } = indentOf(line);
  let rest = line.slice(chars);
  if (columns <= 3 && rest[0] === '#') {
    let hashes = 0;
    while (rest[hashes] === '#') hashes += 1;
    if (hashes <= 6 && (hashes === rest.length || rest[hashes] === ' ' || rest[hashes] === '\t')) {
      rest = rest.slice(hashes).trim();
      // A closing sequence: spaces then hashes only.
      let end = rest.length;
      while (end > 0 && rest[end - 1] === '#') end -= 1;
      if (end === 0) rest = '';
      else if (end < rest.length && (rest[end - 1] === ' ' || rest[end - 1] === '\t'))
        rest = rest.slice(0, end);
      return rest;
    }
  }
  let marker = 0;
  if (rest[0] === '-' || rest[0] === '*' || rest[0] === '+') {
    marker = 1;
  } else {
    while (marker < 9 && rest[marker] >= '0' && rest[marker] <= '9') marker += 1;
    marker = marker > 0 && (rest[marker] === '.' || rest[marker] === ')') ? marker + 1 : 0;
  }
  if (marker > 0 && (marker === rest.length || rest[marker] === ' ' || rest[marker] === '\t')) {
    rest = rest.slice(marker).trimStart();
    if (/^\[[ xX]\](?:[ \t]|$)/.test(rest)) rest = rest.slice(3).trimStart();
  }
  return rest;
}

/** Line-level structure: code blocks apart, prefixes stripped, rules and definitions dropped. */
function blocksOf(markdown: string, mode: ScanMode): { segments: Segment[]; labels: Set<string> } {
  const segments: Segment[] = [];
  const labels = new Set<string>();
  let current: Segment | null = null;
  const push = (code: boolean, line: string) => {
    if (!current || current.code !== code) {
      current = { code, lines: [] };
      segments.push(current);
    }
    current.lines.push(line);
  };
  let fence: { char: string; length: number; depth: number } | null = null;
  // Lines of the current paragraph block, to turn table pipes into spaces.
  let tableBlock: { segment: Segment; from: number; table: boolean } | null = null;
  const endBlock = () => {
    if (tableBlock?.table) {
      const lines = tableBlock.segment.lines;
      for (let at = tableBlock.from; at < lines.length; at += 1)
        lines[at] = lines[at].replace(/(?<!\\)\|/g, ' ');
    }
    tableBlock = null;
  };
  for (const raw of markdown.split('\n')) {
    if (fence) {
      const { rest } = stripQuotes(raw, fence.depth);
      if (closesFence(rest, fence)) fence = null;
      else push(true, rest);
      continue;
    }
    const { rest, depth } = stripQuotes(raw);
    const opening = fenceOf(rest);
    if (opening) {
      endBlock();
      fence = { ...opening, depth };
      push(true, '');
      continue;
    }
    if (isBlank(rest)) {
      endBlock();
      push(false, '');
      continue;
    }
    if (isRuleLine(rest)) {
      if (rest.includes('|') && rest.includes('-') && tableBlock) tableBlock.table = true;
      push(false, '');
      continue;
    }
    const label = referenceLabelOf(rest);
    if (label !== null) {
      labels.add(label);
      push(false, mode === 'mask' ? ' ' : '');
      continue;
    }
    push(false, stripLinePrefixes(rest));
    const segment = current as unknown as Segment;
    if (!tableBlock || tableBlock.segment !== segment) {
      tableBlock = { segment, from: segment.lines.length - 1, table: false };
    }
  }
  endBlock();
  return { segments, labels };
}

const ASCII_PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

function isWhitespace(char: string | undefined): boolean {
  return char === undefined || char === ' ' || char === '\t' || char === '\n' || char === '\u00a0';
}

function isAlphanumeric(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}]/u.test(char);
}

/** Matching structure of one text: code spans, brackets and parentheses. */
interface Matches {
  /** Start of a code span's opening run → end (exclusive) of its closing run. */
  codeEnd: Map<number, number>;
  /** Content bounds of each code span, by start. */
  codeContent: Map<number, [number, number]>;
  /** '[' → matching ']'. */
  bracket: Map<number, number>;
  /** '(' → matching ')'. */
  paren: Map<number, number>;
}

/** Precomputes matches in one pass each; paragraph breaks (blank lines) reset every stack. */
function matchesOf(text: string): Matches {
  const codeEnd = new Map<number, number>();
  const codeContent = new Map<number, [number, number]>();
  // Backtick runs, then each opener's closer: the next run of the same length in the paragraph.
  const runs: { start: number; length: number; paragraph: number }[] = [];
  let paragraph = 0;
  for (let at = 0; at < text.length;) {
    if (text[at] === '\n' && text[at + 1] === '\n') paragraph += 1;
    if (text[at] !== '`') {
      at += 1;
      continue;
    }
    let end = at;
    while (text[end] === '`') end += 1;
    runs.push({ start: at, length: end - at, paragraph });
    at = end;
  }
  const byKey = new Map<string, number[]>();
  runs.forEach((run, index) => {
    const key = `${run.paragraph}:${run.length}`;
    const list = byKey.get(key);
    if (list) list.push(index);
    else byKey.set(key, [index]);
  });
  const cursor = new Map<string, number>();
  for (let index = 0; index < runs.length;) {
    const run = runs[index];
    const key = `${run.paragraph}:${run.length}`;
    const list = byKey.get(key) ?? [];
    let position = cursor.get(key) ?? 0;
    while (position < list.length && list[position] <= index) position += 1;
    cursor.set(key, position);
    if (position < list.length) {
      const closer = runs[list[position]];
      codeEnd.set(run.start, closer.start + closer.length);
      codeContent.set(run.start, [run.start + run.length, closer.start]);
      index = list[position] + 1;
    } else {
      index += 1;
    }
  }

  const bracket = new Map<number, number>();
  const paren = new Map<number, number>();
  let brackets: number[] = [];
  let parens: number[] = [];
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at];
    const span = codeEnd.get(at);
    if (span !== undefined) {
      at = span - 1;
      continue;
    }
    if (char === '\\') {
      at += 1;
    } else if (char === '\n' && text[at + 1] === '\n') {
      brackets = [];
      parens = [];
    } else if (char === '[') {
      brackets.push(at);
    } else if (char === ']') {
      const open = brackets.pop();
      if (open !== undefined) bracket.set(open, at);
    } else if (char === '(') {
      parens.push(at);
    } else if (char === ')') {
      const open = parens.pop();
      if (open !== undefined) paren.set(open, at);
    }
  }
  return { codeEnd, codeContent, bracket, paren };
}

/**
 * The next position at or after `from` holding a character accepted by `accepts`; -1 when none.
 * Callers ask with non-decreasing `from`, so the cached answer keeps the total work linear.
 */
function cachedFinder(text: string, accepts: (char: string) => boolean): (from: number) => number {
  let found = -2;
  return (from: number) => {
    if (found === -1 || found >= from) return found;
    for (let at = from; at < text.length; at += 1) {
      if (accepts(text[at])) return (found = at);
    }
    return (found = -1);
  };
}

/**
 * The bare URL starting at `at` (ending before whitespace, brackets, quotes or tags), or null. The
 * host is checked before the rest is read, so a rejected candidate costs only its host's length.
 */
function plainUrlAt(text: string, at: number): string | null {
  const scheme = text.slice(at, at + 8).toLowerCase();
  const hostStart = scheme.startsWith('https://') ? at + 8 : scheme.startsWith('http://') ? at + 7 : -1;
  if (hostStart === -1) return null;
  const stops = (char: string) => URL_STOP.includes(char) || isWhitespace(char);
  let end = hostStart;
  while (end < text.length && !stops(text[end]) && !'/?#'.includes(text[end])) end += 1;
  const hostname = text
    .slice(hostStart, end)
    .replace(/^[^@]*@/, '')
    .replace(/:\d*$/, '');
  if (!/[A-Za-z0-9]/.test(hostname)) return null;
  while (end < text.length && !stops(text[end])) end += 1;
  return trimUrl(text.slice(at, end));
}

const URL_STOP = '<>"`[]';

/** Whether text[from, to) names a reference definition (labels are at most 999 characters). */
function isDefinedLabel(text: string, from: number, to: number, labels: Set<string>): boolean {
  return labels.size > 0 && to - from <= 999 && labels.has(normaliseLabel(text.slice(from, to)));
}

const AUTOLINK_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]{1,31}:/;

/** Inline markdown of one stretch of non-code lines. */
function inline(text: string, mode: ScanMode, labels: Set<string>): string {
  const { codeEnd, codeContent, bracket, paren } = matchesOf(text);
  const nextGt = cachedFinder(text, (char) => char === '>');
  const nextLt = cachedFinder(text, (char) => char === '<');
  const nextSpace = cachedFinder(text, (char) => char === ' ' || char === '\t' || char === '\n');
  let commentEndsExhausted = false;
  const out: string[] = [];
  // Pending link texts: at `close` (the ']'), continue at `resume`.
  const pending: { close: number; resume: number }[] = [];

  /** The end (exclusive) of a link's destination part after its ']' at `close`, or -1. */
  const linkTail = (close: number): { end: number; reference: boolean } | null => {
    const after = text[close + 1];
    if (after === '(') {
      const end = paren.get(close + 1);
      return end === undefined ? null : { end: end + 1, reference: false };
    }
    if (after === '[') {
      const end = bracket.get(close + 1);
      return end === undefined ? null : { end: end + 1, reference: true };
    }
    return null;
  };

  let at = 0;
  while (at < text.length) {
    while (pending.length > 0 && pending[pending.length - 1].close < at) pending.pop();
    const top = pending[pending.length - 1];
    if (top && top.close === at) {
      pending.pop();
      at = top.resume;
      continue;
    }
    const char = text[at];

    if (char === '\\' && at + 1 < text.length && ASCII_PUNCTUATION.includes(text[at + 1])) {
      out.push(mode === 'strip' ? text[at + 1] : `${char}${text[at + 1]}`);
      at += 2;
      continue;
    }

    if (char === '`') {
      const end = codeEnd.get(at);
      if (end !== undefined) {
        if (mode === 'strip') {
          const [from, to] = codeContent.get(at) as [number, number];
          out.push(' ', text.slice(from, to), ' ');
        } else {
          out.push(' ');
        }
        at = end;
        continue;
      }
      let end2 = at;
      while (text[end2] === '`') end2 += 1;
      out.push(text.slice(at, end2));
      at = end2;
      continue;
    }

    if (char === '!' && text[at + 1] === '[') {
      const close = bracket.get(at + 1);
      const tail = close === undefined ? null : linkTail(close);
      if (tail) {
        out.push(' ');
        at = tail.end;
        continue;
      }
    }

    if (char === '[') {
      const close = bracket.get(at);
      if (close !== undefined) {
        const tail = linkTail(close);
        if (tail || isDefinedLabel(text, at + 1, close, labels)) {
          if (mode === 'mask') {
            out.push(' ');
            at = tail ? tail.end : close + 1;
            continue;
          }
          pending.push({ close, resume: tail ? tail.end : close + 1 });
          at += 1;
          continue;
        }
      }
    }

    if (char === '<') {
      const next = text[at + 1] ?? '';
      if (text.startsWith('<!--', at)) {
        const end = commentEndsExhausted ? -1 : text.indexOf('-->', at + 4);
        if (end !== -1) {
          out.push(' ');
          at = end + 3;
          continue;
        }
        commentEndsExhausted = true;
      }
      const gt = nextGt(at + 1);
      const lt = nextLt(at + 1);
      if (gt !== -1 && (lt === -1 || lt > gt)) {
        const space = nextSpace(at + 1);
        const inner = text.slice(at + 1, Math.min(gt, at + 40));
        if ((space === -1 || space > gt) && AUTOLINK_SCHEME.test(inner)) {
          out.push(' ', text.slice(at + 1, gt), ' ');
          at = gt + 1;
          continue;
        }
        const tagStart = next === '/' ? (text[at + 2] ?? '') : next;
        const tagChar = text[at + (next === '/' ? 3 : 2)] ?? '';
        if (
          (/^[A-Za-z]$/.test(tagStart) && /^[A-Za-z0-9\-\s/>]$/.test(tagChar)) ||
          next === '!' ||
          next === '?'
        ) {
          out.push(' ');
          at = gt + 1;
          continue;
        }
      }
    }

    if (mode === 'strip' && (char === 'h' || char === 'H') && !/[A-Za-z0-9]/.test(text[at - 1] ?? '')) {
      // A plain URL is text: its underscores and tildes are not emphasis.
      const url = plainUrlAt(text, at);
      if (url) {
        out.push(url);
        at += url.length;
        continue;
      }
    }

    if (mode === 'strip' && (char === '*' || char === '_' || char === '~')) {
      let end = at;
      while (text[end] === char) end += 1;
      const before = text[at - 1];
      const after = text[end];
      const flanking = !isWhitespace(before) || !isWhitespace(after);
      const intraword = char === '_' && isAlphanumeric(before) && isAlphanumeric(after);
      const strike = char !== '~' || end - at >= 2;
      if (!(flanking && !intraword && strike)) out.push(text.slice(at, end));
      at = end;
      continue;
    }

    if (mode === 'strip' && char === '\\' && text[at + 1] === '\n') {
      at += 1;
      continue;
    }

    out.push(char);
    at += 1;
  }
  return out.join('');
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z]{2,8});/g, (entity, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : entity;
    }
    return NAMED_ENTITIES[name] ?? entity;
  });
}
