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

/**
 * A body refused by its raw bytes' shape: thrown by the body parser's `verify` (so `JSON.parse`
 * never runs), then put in place of the body (`refusedBody`), so the route's validation pipe
 * answers it in the route's own error envelope, as it answers a parsed body of that shape.
 */
export class BodyShapeError extends Error {
  override readonly name = 'BodyShapeError';
  readonly status = 400;
  readonly expose = true;

  constructor(readonly detail: ValidationDetail) {
    super(detail.message);
  }
}

/** What a route's `@Body()` gets when the raw body was refused by its shape. */
export class RefusedBody {
  constructor(readonly detail: ValidationDetail) {}
}

const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const COMMA = 0x2c;
const COLON = 0x3a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

interface Container {
  isObject: boolean;
  /** Commas seen at this level: members = commas + 1 once one started. */
  commas: number;
  /** The key of the member being read (objects), as written. */
  key: string;
}

/**
 * The same bound as `bodyShapeViolation`, read off the raw JSON bytes before they are parsed:
 * `JSON.parse` of a wide object costs far more (V8 builds it in dictionary mode) than this one pass
 * over the bytes, which stops at the first excess
 * (docs/decisions/0022-request-shape-bodies-paths-methods-query-parameters.md).
 * Bytes that are not valid JSON pass through: the parser refuses them as before.
 */
export function jsonShapeViolation(bytes: Uint8Array, limits: BodyShapeLimits): ValidationDetail | null {
  const stack: Container[] = [];
  let lastStringStart = -1;
  let lastStringEnd = -1;
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index];
    if (byte === QUOTE) {
      const start = index + 1;
      index++;
      while (index < bytes.length && bytes[index] !== QUOTE) index += bytes[index] === BACKSLASH ? 2 : 1;
      lastStringStart = start;
      lastStringEnd = index;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (stack.length + 1 > limits.maxDepth) {
        const member = pathOf(stack) || 'body';
        return { path: member, message: `${member} nests deeper than ${limits.maxDepth} levels` };
      }
      stack.push({ isObject: byte === OPEN_OBJECT, commas: 0, key: '' });
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      stack.pop();
    } else if (byte === COMMA && stack.length > 0) {
      const container = stack[stack.length - 1];
      container.commas++;
      if (container.commas + 1 > limits.maxMembers) {
        const member = pathOf(stack.slice(0, -1)) || 'body';
        return { path: member, message: `${member} has more than ${limits.maxMembers} members` };
      }
    } else if (byte === COLON && stack.length > 0) {
      stack[stack.length - 1].key = Buffer.from(bytes.subarray(lastStringStart, lastStringEnd)).toString();
    }
  }
  return null;
}

/** The dotted path of the member each open container is reading (array items by index). */
function pathOf(stack: Container[]): string {
  return stack.map((container) => (container.isObject ? container.key : String(container.commas))).join('.');
}
