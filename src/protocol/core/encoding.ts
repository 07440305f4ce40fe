import * as dagCbor from '@ipld/dag-cbor';
import { ProtocolError } from './errors';
import { MAX_NESTING_DEPTH } from './limits';
import { toHex } from './bytes';

/** A value of the JSON data model, the only thing protocol payloads may contain. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/**
 * The number rule (PROTOCOL.md "Number Encoding"): only integers in the JSON safe range are
 * canonicalizable. Fractions, NaN, ±Infinity and large magnitudes would encode as CBOR floats or
 * diverge between libraries, silently changing CIDs. Also refuses anything outside the JSON data
 * model (undefined, bigint, Uint8Array, class instances) so the CID is a function of JSON alone.
 */
export function assertCanonicalJsonValue(value: unknown, path = '$', depth = 0): asserts value is JsonValue {
  if (depth > MAX_NESTING_DEPTH) {
    throw new ProtocolError('MALFORMED', `nesting deeper than ${MAX_NESTING_DEPTH} at ${path}`);
  }
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) {
      throw new ProtocolError(
        'NUMBER_NOT_CANONICAL',
        `number at ${path} is not an integer in [-(2^53-1), 2^53-1]: ${String(value)}`,
      );
    }
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => assertCanonicalJsonValue(item, `${path}[${i}]`, depth + 1));
    return;
  }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, item] of Object.entries(value)) {
      assertCanonicalJsonValue(item, `${path}.${key}`, depth + 1);
    }
    return;
  }
  throw new ProtocolError('MALFORMED', `value at ${path} is outside the JSON data model`);
}

/** dag-cbor canonical encoding (map keys by length then bytes) after enforcing the number rule. */
export function dagCborCanonicalEncode(value: unknown): Uint8Array {
  assertCanonicalJsonValue(value);
  return dagCbor.encode(value);
}

/**
 * Decodes dag-cbor and accepts it only if re-encoding yields the same bytes. This refuses
 * float-encoded integers (`f9 3c00` for 1), non-minimal lengths and unsorted maps: bytes that
 * would hash to a different CID than the canonical form of the same value.
 */
export function dagCborDecodeCanonical(bytes: Uint8Array): JsonValue {
  let value: unknown;
  try {
    value = dagCbor.decode(bytes);
  } catch (error) {
    throw new ProtocolError('MALFORMED', `not dag-cbor: ${(error as Error).message}`);
  }
  const reencoded = dagCborCanonicalEncode(value);
  if (toHex(reencoded) !== toHex(bytes)) {
    throw new ProtocolError(
      'NOT_CANONICAL',
      'dag-cbor bytes are not the canonical encoding (float or non-minimal form)',
    );
  }
  return value as JsonValue;
}
