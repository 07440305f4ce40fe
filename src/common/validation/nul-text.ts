/**
 * Where a request value holds text PostgreSQL (or the protocol's UTF-8 encodings) cannot store, as
 * a dotted path (`''` for the value itself), or null: a key or a string for which `unstorable`
 * holds. The walk is iterative because a body may nest deeper than the call stack.
 */
export function textPath(value: unknown, unstorable: (text: string) => boolean): string | null {
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      if (unstorable(current)) return path;
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    for (const [key, item] of Object.entries(current)) {
      const itemPath = path ? `${path}.${key}` : key;
      if (unstorable(key)) return itemPath;
      pending.push({ value: item, path: itemPath });
    }
  }
  return null;
}

/** U+0000: PostgreSQL `text`, `varchar` and `jsonb` cannot store it. */
export const holdsNul = (text: string): boolean => text.includes('\u0000');

/** A UTF-16 surrogate without its pair: not Unicode text, so it has no UTF-8 form to store. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const holdsLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);

/** Where a request value holds U+0000, or null (see `textPath`). */
export const nulTextPath = (value: unknown): string | null => textPath(value, holdsNul);
