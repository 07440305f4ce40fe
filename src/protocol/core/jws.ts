import { base64urlDecode, base64urlEncode, utf8Encode } from './bytes';
import { verifyEd25519 } from './ed25519';
import type { JsonObject, JsonValue } from './encoding';
import { ensure, ProtocolError } from './errors';
import { parseJsonObject } from './json';

export const JWS_ALG = 'EdDSA';

/**
 * Header members that are refused outright (PROTOCOL.md "Signature Verification Profile"): `crit`
 * because we honour no critical extensions, and every way of shipping key material in the header,
 * because the key comes only from `kid` resolved against an identity chain.
 */
export const FORBIDDEN_HEADER_MEMBERS = ['crit', 'jwk', 'jku', 'x5c', 'x5u'] as const;

export interface JwsHeader extends JsonObject {
  alg: 'EdDSA';
  kid: string;
}

export interface DecodedJws {
  readonly token: string;
  readonly header: JwsHeader;
  readonly payload: JsonObject;
  /** the exact bytes of the payload segment (what the signature covers) */
  readonly payloadBytes: Uint8Array;
  /** ASCII `base64url(header).base64url(payload)` */
  readonly signingInput: Uint8Array;
  readonly signature: Uint8Array;
}

export interface DecodeJwsOptions {
  /** the `typ` the caller expects; a different or missing `typ` is refused */
  expectedTyp?: string;
}

/**
 * Splits and parses a compact JWS and applies profile rules §1–§3 (alg pinning, no `crit`, no
 * header keys) plus the `typ` and `kid` checks, all before any signature computation. The
 * signature is NOT checked here; call verifyJwsSignature with the key resolved from `kid`.
 */
export function decodeJws(token: string, options: DecodeJwsOptions = {}): DecodedJws {
  ensure(typeof token === 'string', 'MALFORMED', 'JWS must be a string');
  const parts = token.split('.');
  ensure(parts.length === 3, 'MALFORMED', 'JWS compact serialization has exactly three segments');
  const [headerPart, payloadPart, signaturePart] = parts;

  const header = parseJsonObject(base64urlDecode(headerPart, 'JWS header'), 'JWS header');
  assertHeaderProfile(header, options.expectedTyp);

  const payloadBytes = base64urlDecode(payloadPart, 'JWS payload');
  const payload = parseJsonObject(payloadBytes, 'JWS payload');
  const signature = base64urlDecode(signaturePart, 'JWS signature');
  return {
    token,
    header: header as JwsHeader,
    payload,
    payloadBytes,
    signingInput: utf8Encode(`${headerPart}.${payloadPart}`),
    signature,
  };
}

function assertHeaderProfile(header: JsonObject, expectedTyp: string | undefined): void {
  // Exact string equality only: `alg` never selects a primitive (no "none", "HS256", "eddsa"…).
  ensure(header.alg === JWS_ALG, 'JWS_PROFILE', `JWS alg must be exactly "${JWS_ALG}"`);
  for (const member of FORBIDDEN_HEADER_MEMBERS) {
    ensure(!Object.hasOwn(header, member), 'JWS_PROFILE', `JWS header member "${member}" is refused`);
  }
  if (expectedTyp !== undefined) {
    ensure(header.typ === expectedTyp, 'JWS_PROFILE', `JWS typ must be "${expectedTyp}"`);
  }
  ensure(
    typeof header.kid === 'string' && header.kid.length > 0,
    'KID_INVALID',
    'JWS header kid is required',
  );
}

/** Profile §4 (64 bytes, S < L) and the Ed25519 check itself. */
export function verifyJwsSignature(decoded: DecodedJws, publicKey: Uint8Array | string): void {
  if (!verifyEd25519(publicKey, decoded.signingInput, decoded.signature)) {
    throw new ProtocolError('SIGNATURE_INVALID', 'JWS signature does not verify');
  }
}

/** decodeJws + verifyJwsSignature against a key the caller already knows. */
export function verifyJws(
  token: string,
  publicKey: Uint8Array | string,
  options: DecodeJwsOptions = {},
): DecodedJws {
  const decoded = decodeJws(token, options);
  verifyJwsSignature(decoded, publicKey);
  return decoded;
}

export interface JwsSigningKey {
  sign(message: Uint8Array): Uint8Array;
}

/**
 * `base64url(JSON.stringify(header)).base64url(JSON.stringify(payload)).base64url(sig)`, `alg`
 * forced to EdDSA and placed first. Member order of header and payload is insertion order.
 */
export function signJws(
  header: { typ: string; kid: string; cid?: string; [member: string]: JsonValue | undefined },
  payload: object,
  key: JwsSigningKey,
): string {
  const { alg: _ignored, ...rest } = header;
  const headerPart = base64urlEncode(utf8Encode(JSON.stringify({ alg: JWS_ALG, ...rest })));
  const payloadPart = base64urlEncode(utf8Encode(JSON.stringify(payload)));
  const signature = key.sign(utf8Encode(`${headerPart}.${payloadPart}`));
  return `${headerPart}.${payloadPart}.${base64urlEncode(signature)}`;
}
