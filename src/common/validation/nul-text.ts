/** Text PostgreSQL (or the protocol's UTF-8 encodings) cannot store, found in a request value. */
export interface UnstorableText {
  /** Dotted path to the string or key (`''` for the value itself). */
  path: string;
  problem: 'nul' | 'lone-surrogate';
}

/** U+0000: PostgreSQL `text`, `varchar` and `jsonb` cannot store it. */
export const holdsNul = (text: string): boolean => text.includes('\u0000');

/** A UTF-16 surrogate without its pair: not Unicode text, so it has no UTF-8 form to store. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const holdsLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);

/**
 * The first key or string holding U+0000 anywhere in a request value, else the first holding a lone
 * surrogate, else null: one walk for both. Iterative because a body may nest deeper than the call
 * stack.
 */
export function unstorableText(value: unknown): UnstorableText | null {
  let loneSurrogate: string | null = null;
  const check = (text: string, path: string): boolean => {
    if (holdsNul(text)) return true;
    if (loneSurrogate === null && holdsLoneSurrogate(text)) loneSurrogate = path;
    return false;
  };
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      if (check(current, path)) return { path, problem: 'nul' };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    for (const [key, item] of Object.entries(current)) {
      const itemPath = path ? `${path}.${key}` : key;
      if (check(key, itemPath)) return { path: itemPath, problem: 'nul' };
      pending.push({ value: item, path: itemPath });
    }
  }
  return loneSurrogate === null ? null : { path: loneSurrogate, problem: 'lone-surrogate' };
}

/** Where a request value holds U+0000, or null (see `unstorableText`). */
export function nulTextPath(value: unknown): string | null {
  const found = unstorableText(value);
  return found?.problem === 'nul' ? found.path : null;
}
