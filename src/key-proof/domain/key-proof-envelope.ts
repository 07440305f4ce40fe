import {
  base64urlDecode,
  decodeEd25519Multikey,
  KEY_ROLES,
  verifyEd25519,
  type KeyRole,
} from '../../protocol/core';
import { utf8Encode } from '../../protocol/core/bytes';
import { parseJsonObject } from '../../protocol/core/json';

/** JWS `typ` of a key-proof envelope (design.md §0). */
export const KEY_ADD_TYP = 'did:plat:key-add';
export const KEY_ADD_PURPOSE = 'did:plat:key-add';
export const MAX_ENVELOPE_BYTES = 4096;
export const TIMESTAMP_WINDOW_MS = 5 * 60 * 1000;
export const CEREMONY_LIFETIME_MS = 10 * 60 * 1000;
export const MAX_DESCRIPTION_LENGTH = 200;
export const DEFAULT_DESCRIPTION = 'CLI signing key';
export const DEFAULT_ROLE_SET = 'auth,assert';

/** The seven payload members, in the order of the canonical serialization (api-spec.md). */
export const ENVELOPE_MEMBERS = [
  'nonce',
  'audience',
  'did',
  'roleSet',
  'prevCID',
  'publicKeyMultibase',
  'timestamp',
] as const;

export type EnvelopePayload = Record<(typeof ENVELOPE_MEMBERS)[number], string>;

/** The canonical payload bytes: `JSON.stringify` of the seven members in order (design.md §10). */
export function canonicalEnvelopePayload(payload: EnvelopePayload): string {
  const ordered: Record<string, string> = {};
  for (const member of ENVELOPE_MEMBERS) ordered[member] = payload[member];
  return JSON.stringify(ordered);
}

/** A refusal of the envelope; the service answers every one as a bare E_INVALID_REQUEST. */
export class EnvelopeError extends Error {}

export interface ParsedEnvelope {
  payload: EnvelopePayload;
  publicKey: Uint8Array;
  signingInput: Uint8Array;
  signature: Uint8Array;
}

/**
 * Splits and checks an envelope up to (not including) its signature: header exactly
 * `{alg: EdDSA, typ: did:plat:key-add}` (a `kid` is refused), payload byte-equal to its canonical
 * serialization, the key an Ed25519 multikey.
 */
export function parseEnvelope(token: string): ParsedEnvelope {
  if (Buffer.byteLength(token, 'utf8') > MAX_ENVELOPE_BYTES) {
    throw new EnvelopeError(`The envelope is larger than ${MAX_ENVELOPE_BYTES} bytes`);
  }
  const parts = token.split('.');
  if (parts.length !== 3) throw new EnvelopeError('The envelope is not a compact JWS');
  const [headerPart, payloadPart, signaturePart] = parts;
  let header: Record<string, unknown>;
  let payloadBytes: Uint8Array;
  let parsedPayload: Record<string, unknown>;
  let signature: Uint8Array;
  try {
    header = parseJsonObject(base64urlDecode(headerPart, 'JWS header'), 'JWS header');
    payloadBytes = base64urlDecode(payloadPart, 'JWS payload');
    parsedPayload = parseJsonObject(payloadBytes, 'JWS payload');
    signature = base64urlDecode(signaturePart, 'JWS signature');
  } catch {
    throw new EnvelopeError('The envelope is not a compact JWS');
  }

  if (Object.hasOwn(header, 'kid')) throw new EnvelopeError('The envelope header must not carry a kid');
  if (header.typ !== KEY_ADD_TYP) throw new EnvelopeError(`The envelope typ must be "${KEY_ADD_TYP}"`);
  const headerMembers = Object.keys(header);
  if (header.alg !== 'EdDSA' || headerMembers.length !== 2) {
    throw new EnvelopeError('The envelope header must be exactly alg EdDSA and typ');
  }

  const members = Object.keys(parsedPayload);
  const complete =
    members.length === ENVELOPE_MEMBERS.length &&
    ENVELOPE_MEMBERS.every((member) => typeof parsedPayload[member] === 'string');
  if (!complete) throw new EnvelopeError('The envelope payload is not canonical');
  const payload = parsedPayload as EnvelopePayload;
  if (!bytesEqual(utf8Encode(canonicalEnvelopePayload(payload)), payloadBytes)) {
    throw new EnvelopeError('The envelope payload is not canonical');
  }

  let publicKey: Uint8Array;
  try {
    publicKey = decodeEd25519Multikey(payload.publicKeyMultibase);
  } catch {
    throw new EnvelopeError('publicKeyMultibase is not an Ed25519 multikey');
  }
  return { payload, publicKey, signingInput: utf8Encode(`${headerPart}.${payloadPart}`), signature };
}

/** The Ed25519 check of the envelope against its own key; a non-canonical signature is false too. */
export function envelopeSignatureVerifies(envelope: ParsedEnvelope): boolean {
  try {
    return verifyEd25519(envelope.publicKey, envelope.signingInput, envelope.signature);
  } catch {
    return false;
  }
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

/** `YYYY-MM-DDTHH:MM:SSZ` (whole seconds, UTC) as epoch ms, or null when not of that form. */
export function parseEnvelopeTimestamp(value: string): number | null {
  const match = TIMESTAMP.exec(value);
  if (!match) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms) || new Date(ms).toISOString() !== `${value.slice(0, 19)}.000Z`) return null;
  return ms;
}

/** Canonical role sets: a non-empty subset of the roles, comma-joined in the fixed order. */
export function parseRoleSet(value: string): KeyRole[] | null {
  const roles = value.split(',');
  const canonical = KEY_ROLES.filter((role) => roles.includes(role));
  return canonical.length > 0 && canonical.join(',') === value ? canonical : null;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
