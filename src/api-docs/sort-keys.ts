/** Deep copy with object keys sorted, so the generated document is byte-stable. */
export function sortKeysDeep<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => sortKeysDeep(item)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeysDeep((value as Record<string, unknown>)[key])]),
    ) as T;
  }
  return value;
}
