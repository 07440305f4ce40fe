/**
 * The order scenarios are measured in. A scenario read against another (`relativeTo`, e.g. a deep
 * page against the first page) is measured in the same stretch as that one, round by round, so the
 * two medians come from minutes that lie together, not from either end of a 40-minute run on a
 * machine whose speed drifts. Pure functions only.
 */

/**
 * Indexes of `scenarios` in groups: every scenario with its `relativeTo` (transitively), other
 * scenarios alone. Groups come in the order of their first member; members in their own order.
 * A `relativeTo` naming no scenario of the list is ignored (a partial run).
 */
export function measurementGroups(scenarios: readonly { name: string; relativeTo?: string }[]): number[][] {
  const indexOf = new Map(scenarios.map((s, i) => [s.name, i]));
  const parent = scenarios.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  scenarios.forEach((s, i) => {
    const other = s.relativeTo === undefined ? undefined : indexOf.get(s.relativeTo);
    if (other !== undefined) parent[find(i)] = find(other);
  });
  const groups = new Map<number, number[]>();
  scenarios.forEach((_, i) => {
    const key = find(i);
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  return [...groups.values()].sort((a, b) => a[0] - b[0]);
}

/** A group's members in round `round` (1-based): as listed in odd rounds, reversed in even ones. */
export function roundOrder<T>(group: readonly T[], round: number): T[] {
  return round % 2 === 1 ? [...group] : [...group].reverse();
}
