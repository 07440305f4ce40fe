/**
 * A search query as the backend runs it (docs/decisions/0181-search-query-and-ranking.md): the
 * text in `websearch_to_tsquery` syntax (quotes, `OR`, `-`), and the last word, when the reader is
 * still typing it, as a prefix. Pure: no Nest, no database.
 */

/**
 * Bounds of a query: longer or wordier ones are a 400 (design.md §5). `exactFirst`: a lone last
 * word is read whole once this many of the reader's posts hold it (more than a page,
 * docs/decisions/0185-bounded-search-work.md).
 */
export const SEARCH_LIMITS = { maxLength: 200, maxTerms: 8, minPrefix: 3, exactFirst: 21 } as const;

/** The kinds of things a search finds, in the order `types` names them. */
export const SEARCH_TYPES = ['posts', 'comments', 'pages', 'events'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export interface ParsedQuery {
  /** The text before the prefix term (all of it without one), in websearch syntax. */
  text: string;
  /** The last word as a prefix (`word`, letters and digits only), or null. */
  prefix: string | null;
  /** True when the prefix joins the rest with `OR` (`a OR b…`), else it is required. */
  alternative: boolean;
  /**
   * True when `text` has a word a match must contain (not excluded) and the prefix is required:
   * the index reads by `text` and the prefix is checked on the rows it finds
   * (docs/decisions/0185-bounded-search-work.md).
   */
  headRequired: boolean;
}

/** Why a query cannot run, as a 400's detail message. */
export class UnsearchableQuery extends Error {}

const WORD = /[\p{L}\p{N}]+/gu;
const PREFIXABLE = /(^|[\s(])([\p{L}\p{N}]+)$/u;

/**
 * The query `q` as the backend runs it, or `UnsearchableQuery` when it is longer than
 * `SEARCH_LIMITS.maxLength`, has more than `maxTerms` words, or no word a match must contain (a
 * query of only `-excluded` words, or of no letter or digit, would match by scanning everything).
 * A last word that ends the query (no space, not in an open quote, not excluded) is a prefix when
 * it has at least `SEARCH_LIMITS.minPrefix` characters (a shorter one would read the postings of
 * every word it starts: docs/decisions/0185-bounded-search-work.md).
 */
export function parseSearchQuery(q: string): ParsedQuery {
  const text = q.normalize('NFC');
  if (text.length > SEARCH_LIMITS.maxLength) {
    throw new UnsearchableQuery(`q must be at most ${SEARCH_LIMITS.maxLength} characters`);
  }
  const words = wordsOf(text);
  const terms = words.filter((word) => !word.connective);
  if (terms.length > SEARCH_LIMITS.maxTerms) {
    throw new UnsearchableQuery(`q must have at most ${SEARCH_LIMITS.maxTerms} words`);
  }
  if (!terms.some((word) => !word.excluded)) {
    throw new UnsearchableQuery('q must have a word to find (letters or digits, not only -excluded ones)');
  }
  const quotes = (text.match(/"/g) ?? []).length;
  const last = PREFIXABLE.exec(text);
  if (!last || quotes % 2 === 1 || last[2] === 'OR' || [...last[2]].length < SEARCH_LIMITS.minPrefix)
    return { text, prefix: null, alternative: false, headRequired: false };
  const head = text.slice(0, text.length - last[2].length).trimEnd();
  const alternative = /(^|\s)OR$/.test(head);
  const rest = alternative ? head.slice(0, -2).trimEnd() : head;
  return {
    text: rest,
    prefix: last[2].toLowerCase(),
    alternative,
    headRequired: !alternative && wordsOf(rest).some((word) => !word.connective && !word.excluded),
  };
}

interface QueryWord {
  excluded: boolean;
  /** `OR` between words: websearch_to_tsquery's operator, not a term. */
  connective: boolean;
}

/** The words of a query, with whether each is excluded (`-word`) or the `OR` operator. */
function wordsOf(text: string): QueryWord[] {
  return [...text.matchAll(WORD)].map((match) => {
    const before = text[match.index - 1];
    const connective =
      match[0] === 'OR' &&
      (match.index === 0 || /\s/.test(before)) &&
      /^(\s|$)/.test(text.slice(match.index + 2, match.index + 3));
    return { excluded: before === '-', connective };
  });
}

/** A passage with its matched terms marked: plain text and the [start, end) offsets of each term. */
export interface Highlight {
  text: string;
  matches: { start: number; end: number }[];
}

/** The passage's length in words (record 0181's one fragment of up to 24 words). */
const PASSAGE_WORDS = 24;
/** Words shown before the first match the passage starts at, when the document has them. */
const PASSAGE_LEAD = 4;
/** A word as the highlight reads documents: letters (with their combining marks) and digits. */
const DOCUMENT_WORD = /[\p{L}\p{M}\p{N}]+/gu;
/** What `unaccent` folds that a canonical decomposition does not. */
const LIGATURES: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', þ: 'th' };

/** A word as `plat_search` compares it: lower case, accents and ligatures folded (`unaccent`). */
function folded(word: string): string {
  return word
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđþ]/g, (char) => LIGATURES[char]);
}

/**
 * The highlight of a hit (docs/decisions/0186-search-per-request-work.md): the passage of
 * `document` of up to 24 words that holds the most of the query's terms (the words a match must
 * or may contain, not the `-excluded` ones; the prefix as a prefix), starting a few words before
 * its first match, with each matched word's offsets in UTF-16 code units (JavaScript string
 * indices). Computed here from the document the backend returns, not by `ts_headline`: a word is
 * compared as `plat_search` compares it (case and accents folded), so `cafe` marks `café`.
 */
export function highlightIn(document: string, query: ParsedQuery): Highlight {
  const terms = new Set(termsOf(query.text).map(folded));
  const prefix = query.prefix === null ? null : folded(query.prefix);
  const words = [...document.matchAll(DOCUMENT_WORD)].map((match) => {
    const word = folded(match[0]);
    const term = terms.has(word) ? word : prefix !== null && word.startsWith(prefix) ? `${prefix}*` : null;
    return { start: match.index, end: match.index + match[0].length, term };
  });
  if (words.length === 0) return { text: document.trim(), matches: [] };
  let best = { from: 0, distinct: 0, count: 0 };
  words.forEach((word, index) => {
    if (word.term === null) return;
    const from = Math.max(0, Math.min(index - PASSAGE_LEAD, words.length - PASSAGE_WORDS));
    const window = words.slice(from, from + PASSAGE_WORDS).filter((inside) => inside.term !== null);
    const distinct = new Set(window.map((inside) => inside.term)).size;
    if (distinct > best.distinct || (distinct === best.distinct && window.length > best.count))
      best = { from, distinct, count: window.length };
  });
  const passage = words.slice(best.from, best.from + PASSAGE_WORDS);
  // The document's own start and end (punctuation, an emoji) when the passage reaches them.
  const from = best.from === 0 ? 0 : passage[0].start;
  const to = best.from + PASSAGE_WORDS >= words.length ? document.length : passage[passage.length - 1].end;
  const text = document.slice(from, to);
  const base = from + text.length - text.trimStart().length;
  return {
    text: text.trim(),
    matches: passage
      .filter((word) => word.term !== null)
      .map((word) => ({ start: word.start - base, end: word.end - base })),
  };
}

/** The words of websearch text a match may contain: not `OR`, not `-excluded` (nor in `-"…"`). */
function termsOf(text: string): string[] {
  const terms: string[] = [];
  let quoted = false;
  let excludedQuote = false;
  for (const match of text.matchAll(/"|[\p{L}\p{M}\p{N}]+/gu)) {
    // `-` excludes at the start of a word, not inside a hyphenated one (`venue-change`).
    const excluded =
      text[match.index - 1] === '-' && !/[\p{L}\p{M}\p{N}]/u.test(text[match.index - 2] ?? ' ');
    if (match[0] === '"') {
      quoted = !quoted;
      excludedQuote = quoted && excluded;
    } else if (quoted ? !excludedQuote : !excluded && !isConnective(text, match.index, match[0])) {
      terms.push(match[0]);
    }
  }
  return terms;
}

/** `OR` standing alone between words: websearch_to_tsquery's operator, not a term. */
function isConnective(text: string, index: number, word: string): boolean {
  return (
    word === 'OR' &&
    (index === 0 || /\s/.test(text[index - 1])) &&
    /^(\s|$)/.test(text.slice(index + 2, index + 3))
  );
}
