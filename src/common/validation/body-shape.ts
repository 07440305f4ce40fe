import type { ValidationDetail } from '../errors/api-error';

export interface BodyShapeLimits {
  /** Members of one object, or items of one array. */
  maxMembers: number;
  /** Nesting of objects and arrays (the top level is depth 1). */
  maxDepth: number;
}

/**
 * The first place a request value is wider or deeper than the limits, as a validation detail, or
 * null. Runs before any validation: class-transformer and class-validator spend time in proportion
 * to the members (a 50,000-member body cost a second of CPU) and recurse per level (a deeply nested
 * body overflowed the stack). Iterative for the same reason, and it stops at the first excess, so
 * its own cost is bounded by the limits.
 */
export function bodyShapeViolation(value: unknown, limits: BodyShapeLimits): ValidationDetail | null {
  const pending: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 1 }];
  while (pending.length > 0) {
    const { value: current, path, depth } = pending.pop()!;
    if (current === null || typeof current !== 'object') continue;
    const member = path || 'body';
    if (depth > limits.maxDepth) {
      return { path: member, message: `${member} nests deeper than ${limits.maxDepth} levels` };
    }
    const keys = Object.keys(current);
    if (keys.length > limits.maxMembers) {
      return { path: member, message: `${member} has more than ${limits.maxMembers} members` };
    }
    for (const key of keys) {
      const item = (current as Record<string, unknown>)[key];
      pending.push({ value: item, path: path ? `${path}.${key}` : key, depth: depth + 1 });
    }
  }
  return null;
}
