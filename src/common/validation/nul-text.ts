/**
 * Where a request value holds U+0000, as a dotted path (`''` for the value itself), or null.
 * PostgreSQL `text`, `varchar` and `jsonb` cannot store that character, so text carrying it must be
 * refused as a 400 before it reaches the database. The walk is iterative because a 1 MiB JSON body
 * can nest far deeper than the call stack.
 */
export function nulTextPath(value: unknown): string | null {
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return path;
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    for (const [key, item] of Object.entries(current)) {
      const itemPath = path ? `${path}.${key}` : key;
      if (key.includes('\u0000')) return itemPath;
      pending.push({ value: item, path: itemPath });
    }
  }
  return null;
}
