import { PLAT_BRAND, typFor, type ProtocolBrand } from './brand';
import { cidOfEncoded, isDagCborCid } from './cid';
import { dagCborCanonicalEncode, type JsonObject } from './encoding';
import { ensure } from './errors';
import { isBrandDid } from './ids';
import { decodeJws, signJws, verifyJwsSignature, type JwsHeader } from './jws';
import type { KeyResolver } from './key-resolution';
import { didUrl, parseDidUrl } from './kid';
import { MAX_ARTIFACT_BYTES } from './limits';
import type { KeySigner } from './signer';
import { assertCreatedAt, assertNotTooFarInFuture } from './timestamp';

/** A standalone, permanent revocation of one credential by its issuer (CREDENTIALS.md "Revocation"). */
export interface RevocationPayload {
  version: 1;
  type: 'revocation';
  /** the revoking issuer */
  did: string;
  credentialCID: string;
  createdAt: string;
}

export function validateRevocationPayload(
  payload: JsonObject,
  brand: ProtocolBrand = PLAT_BRAND,
): RevocationPayload {
  ensure(payload.version === 1, 'MALFORMED', 'revocation version must be 1');
  ensure(payload.type === 'revocation', 'MALFORMED', 'revocation type must be "revocation"');
  ensure(isBrandDid(payload.did, brand), 'MALFORMED', 'revocation did must be a DID');
  ensure(isDagCborCid(payload.credentialCID), 'MALFORMED', 'revocation credentialCID must be a dag-cbor CID');
  assertCreatedAt(payload.createdAt);
  return payload as unknown as RevocationPayload;
}

export interface SignedRevocation {
  readonly token: string;
  readonly cid: string;
  readonly payload: RevocationPayload;
}

export function createRevocation(
  input: { did: string; credentialCID: string; createdAt: string },
  signer: KeySigner,
  options: { brand?: ProtocolBrand } = {},
): SignedRevocation {
  const brand = options.brand ?? PLAT_BRAND;
  const payload: RevocationPayload = {
    version: 1,
    type: 'revocation',
    did: input.did,
    credentialCID: input.credentialCID,
    createdAt: input.createdAt,
  };
  validateRevocationPayload(payload as unknown as JsonObject, brand);
  const { cid } = cidOfEncoded(dagCborCanonicalEncode(payload));
  const token = signJws(
    { typ: typFor('revocation', brand), kid: didUrl(input.did, signer.keyId), cid },
    payload,
    signer,
  );
  return { token, cid, payload };
}

export interface VerifiedRevocation extends SignedRevocation {
  readonly header: JwsHeader;
}

export interface RevocationVerifyOptions {
  /** key of the revoking DID (current state at ingest; historical when re-verifying) */
  resolveKey: KeyResolver;
  /** ingest clock: createdAt more than 24 h ahead is refused */
  now?: Date;
  /** issuer-only rule: the revoked credential's issuer; the revocation must be signed by it */
  expectedIssuer?: string;
  /** the credential CID the caller expects this revocation to revoke */
  expectedCredentialCid?: string;
  brand?: ProtocolBrand;
}

/**
 * Verifies a revocation artifact: profile and typ, schema, size (artifact cap), header.cid, kid
 * DID = payload did, signature; optionally the issuer-only rule and the 24-hour future bound.
 */
export async function verifyRevocation(
  token: string,
  options: RevocationVerifyOptions,
): Promise<VerifiedRevocation> {
  const brand = options.brand ?? PLAT_BRAND;
  const jws = decodeJws(token, { expectedTyp: typFor('revocation', brand) });
  const payload = validateRevocationPayload(jws.payload, brand);
  const encoded = dagCborCanonicalEncode(jws.payload);
  ensure(encoded.length <= MAX_ARTIFACT_BYTES, 'TOO_LARGE', `revocation exceeds ${MAX_ARTIFACT_BYTES} bytes`);
  const { cid } = cidOfEncoded(encoded);
  ensure(jws.header.cid === cid, 'CID_MISMATCH', `revocation header cid does not match its CID ${cid}`);
  const { did } = parseDidUrl(jws.header.kid, brand);
  ensure(did === payload.did, 'KID_INVALID', 'revocation kid DID must be its did');
  if (options.expectedIssuer !== undefined) {
    ensure(
      payload.did === options.expectedIssuer,
      'UNAUTHORIZED',
      'only the credential issuer can revoke it',
    );
  }
  if (options.expectedCredentialCid !== undefined) {
    ensure(
      payload.credentialCID === options.expectedCredentialCid,
      'UNAUTHORIZED',
      'revocation names another credential',
    );
  }
  verifyJwsSignature(jws, await options.resolveKey(jws.header.kid));
  if (options.now) assertNotTooFarInFuture(payload.createdAt, options.now);
  return { token, cid, payload, header: jws.header };
}

/** The as-of rule: a revocation invalidates an op iff R.createdAt <= O.createdAt (inclusive). */
export function revocationAppliesAsOf(
  revocation: Pick<RevocationPayload, 'createdAt'>,
  operationCreatedAt: string,
): boolean {
  return revocation.createdAt <= operationCreatedAt;
}
