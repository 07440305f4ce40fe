import { ProtocolError } from './errors';
import type { JsonObject } from './encoding';
import { utf8Decode } from './bytes';

/**
 * Parses a JWS JSON segment into an object. Duplicate keys are refused: the signature commits to
 * the raw bytes while the CID derives from the parsed value, and parsers disagree on which
 * duplicate wins (PROTOCOL.md "JSON Payload Canonicalization": treat as malformed).
 */
export function parseJsonObject(bytes: Uint8Array, what: string): JsonObject {
  const text = utf8Decode(bytes, what);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ProtocolError('MALFORMED', `${what} is not JSON`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ProtocolError('MALFORMED', `${what} is not a JSON object`);
  }
  assertNoDuplicateKeys(text, what);
  return value as JsonObject;
}

/** Scans already-valid JSON text, tracking the key set of every open object. */
function assertNoDuplicateKeys(text: string, what: string): void {
  const stack: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const top = stack[stack.length - 1];
      if (expectKey && top) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (top.has(key)) throw new ProtocolError('MALFORMED', `${what} has a duplicate key "${key}"`);
        top.add(key);
      }
      expectKey = false;
      i = j;
    } else if (c === '{') {
      stack.push(new Set());
      expectKey = true;
    } else if (c === '[') {
      stack.push(null);
      expectKey = false;
    } else if (c === '}' || c === ']') {
      stack.pop();
      expectKey = false;
    } else if (c === ',') {
      expectKey = stack[stack.length - 1] instanceof Set;
    }
  }
}
