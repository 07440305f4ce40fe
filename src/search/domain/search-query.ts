/**
 * A search query as the backend runs it (docs/decisions/0181-search-query-and-ranking.md): the
 * text in `websearch_to_tsquery` syntax (quotes, `OR`, `-`), and the last word, when the reader is
 * still typing it, as a prefix. Pure: no Nest, no database.
 */

/** Bounds of a query: longer or wordier ones are a 400 (design.md §5). */
export const SEARCH_LIMITS = { maxLength: 200, maxTerms: 8, minPrefix: 3 } as const;

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

/** The marks the backend puts around matched terms (control characters stripped from documents first). */
export const HIGHLIGHT_START = '\u0002';
export const HIGHLIGHT_STOP = '\u0003';

/**
 * The highlight of a passage the backend marked with `HIGHLIGHT_START`/`HIGHLIGHT_STOP`: the
 * marks removed, their positions as offsets in UTF-16 code units (JavaScript string indices).
 */
export function highlightOf(marked: string): Highlight {
  const matches: { start: number; end: number }[] = [];
  let text = '';
  let start = -1;
  for (const char of marked) {
    if (char === HIGHLIGHT_START) start = text.length;
    else if (char === HIGHLIGHT_STOP) {
      if (start >= 0 && text.length > start) matches.push({ start, end: text.length });
      start = -1;
    } else text += char;
  }
  return { text: text.trim() === text ? text : trimmed(text, matches), matches };
}

/** `text` without its surrounding white space, the offsets moved with it. */
function trimmed(text: string, matches: { start: number; end: number }[]): string {
  const lead = text.length - text.trimStart().length;
  for (const match of matches) {
    match.start -= lead;
    match.end -= lead;
  }
  return text.trim();
}
