import { PLAT_BRAND, typFor, type ProtocolBrand } from './brand';
import { attenuationsGrant, isAttenuationOf, type Attenuation } from './attenuation';
import { computeCid } from './cid';
import type { JsonObject } from './encoding';
import { ensure, ProtocolError } from './errors';
import { isBrandDid } from './ids';
import { decodeJws, signJws, verifyJwsSignature, type DecodedJws, type JwsHeader } from './jws';
import type { MaybePromise, RevocationCheck } from './key-resolution';
import { didUrl, parseDidUrl } from './kid';
import {
  MAX_CREDENTIAL_ATTENUATIONS,
  MAX_CREDENTIAL_TOKEN_BYTES,
  MAX_DELEGATION_CHAIN_LENGTH,
} from './limits';
import type { KeySigner } from './signer';

export const PUBLIC_AUDIENCE = '*';

/**
 * PlatCredential (CREDENTIALS.md with design.md §4): `host` is the one extra top-level member, bound
 * by the CID. Other unknown members are preserved and ignored.
 */
export interface CredentialPayload {
  version: 1;
  type: string;
  iss: string;
  aud: string;
  host?: string;
  att: Attenuation[];
  prf: string[];
  exp: number;
  iat: number;
}

export function validateCredentialPayload(
  payload: JsonObject,
  brand: ProtocolBrand = PLAT_BRAND,
): CredentialPayload {
  ensure(payload.version === 1, 'MALFORMED', 'credential version must be 1');
  ensure(
    payload.type === brand.credentialType,
    'MALFORMED',
    `credential type must be "${brand.credentialType}"`,
  );
  ensure(isBrandDid(payload.iss, brand), 'MALFORMED', 'credential iss must be a DID');
  ensure(
    payload.aud === PUBLIC_AUDIENCE || isBrandDid(payload.aud, brand),
    'MALFORMED',
    'credential aud must be a DID or "*"',
  );
  if (payload.host !== undefined) {
    ensure(
      typeof payload.host === 'string' && payload.host.length > 0,
      'MALFORMED',
      'credential host must be a non-empty string',
    );
  }
  const att = payload.att;
  ensure(Array.isArray(att) && att.length >= 1, 'MALFORMED', 'credential att needs at least one entry');
  ensure(
    att.length <= MAX_CREDENTIAL_ATTENUATIONS,
    'TOO_LARGE',
    `credential att holds more than ${MAX_CREDENTIAL_ATTENUATIONS} entries`,
  );
  for (const entry of att) {
    ensure(
      typeof entry === 'object' &&
        entry !== null &&
        !Array.isArray(entry) &&
        typeof entry.resource === 'string' &&
        entry.resource.length > 0 &&
        typeof entry.action === 'string' &&
        entry.action.length > 0,
      'MALFORMED',
      'credential att entries are {resource, action} with non-empty strings',
    );
  }
  const prf = payload.prf ?? [];
  ensure(
    Array.isArray(prf) && prf.every((p) => typeof p === 'string'),
    'MALFORMED',
    'credential prf must be an array of JWS strings',
  );
  ensure(prf.length <= 1, 'MALFORMED', 'credential prf holds at most one parent (linear delegation)');
  for (const field of ['exp', 'iat'] as const) {
    const value = payload[field];
    ensure(
      typeof value === 'number' && Number.isSafeInteger(value) && value > 0,
      'MALFORMED',
      `credential ${field} must be a positive integer`,
    );
  }
  return { ...(payload as unknown as CredentialPayload), prf: prf as string[] };
}

export interface CreateCredentialInput {
  iss: string;
  aud: string;
  host?: string;
  att: Attenuation[];
  /** parent credential token, for a delegated credential */
  prf?: string[];
  exp: number;
  iat: number;
}

export interface SignedCredential {
  readonly token: string;
  readonly cid: string;
  readonly payload: CredentialPayload;
}

/** Signs a credential with one of the issuer's keys; members in the order of design.md §4. */
export function createCredential(
  input: CreateCredentialInput,
  signer: KeySigner,
  options: { brand?: ProtocolBrand } = {},
): SignedCredential {
  const brand = options.brand ?? PLAT_BRAND;
  const payload = {
    version: 1 as const,
    type: brand.credentialType,
    iss: input.iss,
    aud: input.aud,
    ...(input.host !== undefined ? { host: input.host } : {}),
    att: input.att.map(({ resource, action }) => ({ resource, action })),
    prf: input.prf ?? [],
    exp: input.exp,
    iat: input.iat,
  };
  validateCredentialPayload(payload as unknown as JsonObject, brand);
  const { cid } = computeCid(payload);
  const token = signJws(
    { typ: typFor('credential', brand), kid: didUrl(input.iss, signer.keyId), cid },
    payload,
    signer,
  );
  return { token, cid, payload };
}

export interface DecodedCredential {
  readonly token: string;
  readonly cid: string;
  readonly header: JwsHeader;
  readonly payload: CredentialPayload;
  readonly keyId: string;
}

/**
 * Structural decode of one credential (no signature, no chain): size cap before decoding, profile,
 * typ, schema, header.cid = CID(payload), and kid = `<iss>#<keyId>`.
 */
export function decodeCredential(token: string, options: { brand?: ProtocolBrand } = {}): DecodedCredential {
  return decodeCredentialJws(token, options.brand ?? PLAT_BRAND).credential;
}

function decodeCredentialJws(
  token: string,
  brand: ProtocolBrand,
): { credential: DecodedCredential; jws: DecodedJws } {
  ensure(typeof token === 'string', 'MALFORMED', 'credential must be a JWS string');
  ensure(
    Buffer.byteLength(token, 'utf8') <= MAX_CREDENTIAL_TOKEN_BYTES,
    'TOO_LARGE',
    `credential exceeds ${MAX_CREDENTIAL_TOKEN_BYTES} bytes`,
  );
  const jws = decodeJws(token, { expectedTyp: typFor('credential', brand) });
  const payload = validateCredentialPayload(jws.payload, brand);
  const { cid } = computeCid(jws.payload);
  ensure(jws.header.cid === cid, 'CID_MISMATCH', `credential header cid does not match its CID ${cid}`);
  const { did, keyId } = parseDidUrl(jws.header.kid, brand);
  ensure(did === payload.iss, 'KID_INVALID', 'credential kid DID must be its iss');
  return { credential: { token, cid, header: jws.header, payload, keyId }, jws };
}

export interface CredentialVerifyOptions {
  /**
   * Issuer key for `<iss>#<keyId>`: HISTORICAL resolution (any key that ever appeared in the
   * issuer's chain, any role), so credentials survive rotation. Must throw for a deleted issuer.
   */
  resolveIssuerKey: (kid: string, issuerDid: string) => MaybePromise<Uint8Array | string>;
  /** consulted for the leaf and every parent */
  isRevoked: RevocationCheck;
  /** time basis: wall clock on reads, the op's createdAt at ingest */
  now: Date;
  /** the leaf must be addressed to this DID (e.g. the app, or the op signer) */
  expectedAudience?: string;
  /** the root credential (prf: []) must be issued by this DID (e.g. the content creator) */
  expectedRoot?: string;
  /** every credential in the chain must carry `host` equal to this (design.md §4) */
  expectedHost?: string;
  /** `aud: "*"` is refused unless this is set (design.md §4 refuses it) */
  allowPublicAudience?: boolean;
  /** forwarded to isRevoked: verify history as of this createdAt */
  revocationAsOf?: string;
  brand?: ProtocolBrand;
}

export interface VerifiedCredential extends DecodedCredential {
  readonly issuer: string;
  readonly audience: string;
  readonly host: string | undefined;
  readonly att: Attenuation[];
  /** the delegation chain, leaf first, root last (a root credential has a chain of one) */
  readonly chain: DecodedCredential[];
  readonly rootIssuer: string;
}

/** Unix seconds in the half-open validity window [iat, exp). */
function assertTemporallyValid(payload: CredentialPayload, nowSeconds: number, cid: string): void {
  if (payload.iat > nowSeconds)
    throw new ProtocolError(
      'CREDENTIAL_NOT_YET_VALID',
      `credential ${cid} is not valid yet (iat in the future)`,
    );
  if (nowSeconds >= payload.exp)
    throw new ProtocolError('CREDENTIAL_EXPIRED', `credential ${cid} has expired`);
}

/**
 * Verifies a credential and its whole delegation chain, leaf to root: each level's structure,
 * signature (issuer key), validity window and revocation; then audience linkage, exp narrowing,
 * attenuation, host, the root issuer, and the depth limit (16 credentials, the 17th is refused).
 */
export async function verifyCredential(
  token: string,
  options: CredentialVerifyOptions,
): Promise<VerifiedCredential> {
  const brand = options.brand ?? PLAT_BRAND;
  const allowPublic = options.allowPublicAudience ?? false;
  const nowSeconds = Math.floor(options.now.getTime() / 1000);
  const chain: DecodedCredential[] = [];

  let current = await verifyLevel(token, options, brand, nowSeconds, allowPublic);
  chain.push(current);
  if (options.expectedAudience !== undefined && current.payload.aud !== options.expectedAudience) {
    ensure(
      allowPublic && current.payload.aud === PUBLIC_AUDIENCE,
      'UNAUTHORIZED',
      `credential is addressed to ${current.payload.aud}, not ${options.expectedAudience}`,
    );
  }
  while (current.payload.prf.length > 0) {
    ensure(chain.length < MAX_DELEGATION_CHAIN_LENGTH, 'DELEGATION_TOO_DEEP', 'delegation chain too deep');
    const parent = await verifyLevel(current.payload.prf[0], options, brand, nowSeconds, allowPublic);
    const child = current.payload;
    ensure(
      child.iss === parent.payload.aud || (allowPublic && parent.payload.aud === PUBLIC_AUDIENCE),
      'UNAUTHORIZED',
      `delegation broken: ${child.iss} is not the audience of its parent credential`,
    );
    ensure(
      child.exp <= parent.payload.exp,
      'UNAUTHORIZED',
      'a delegated credential cannot outlive its parent',
    );
    ensure(
      isAttenuationOf(child.att, parent.payload.att, brand),
      'UNAUTHORIZED',
      'a delegated credential widens its parent scope',
    );
    chain.push(parent);
    current = parent;
  }
  const rootIssuer = current.payload.iss;
  if (options.expectedRoot !== undefined) {
    ensure(
      rootIssuer === options.expectedRoot,
      'UNAUTHORIZED',
      `delegation roots at ${rootIssuer}, not ${options.expectedRoot}`,
    );
  }
  const leaf = chain[0];
  return {
    ...leaf,
    issuer: leaf.payload.iss,
    audience: leaf.payload.aud,
    host: leaf.payload.host,
    att: leaf.payload.att,
    chain,
    rootIssuer,
  };
}

async function verifyLevel(
  token: string,
  options: CredentialVerifyOptions,
  brand: ProtocolBrand,
  nowSeconds: number,
  allowPublic: boolean,
): Promise<DecodedCredential> {
  const { credential: level, jws } = decodeCredentialJws(token, brand);
  const { payload, cid } = level;
  ensure(
    allowPublic || payload.aud !== PUBLIC_AUDIENCE,
    'UNAUTHORIZED',
    'public credentials (aud "*") are refused',
  );
  if (options.expectedHost !== undefined) {
    ensure(
      payload.host === options.expectedHost,
      'UNAUTHORIZED',
      `credential host is not ${options.expectedHost}`,
    );
  }
  const key = await options.resolveIssuerKey(level.header.kid, payload.iss);
  verifyJwsSignature(jws, key);
  assertTemporallyValid(payload, nowSeconds, cid);
  if (await options.isRevoked(cid, payload.iss, options.revocationAsOf)) {
    throw new ProtocolError('CREDENTIAL_REVOKED', `credential ${cid} is revoked`);
  }
  return level;
}

/** Does the (verified) credential grant this concrete action on this resource? */
export function credentialGrants(
  credential: Pick<VerifiedCredential, 'att'>,
  request: { resource: string; action: string },
  brand: ProtocolBrand = PLAT_BRAND,
): boolean {
  return attenuationsGrant(credential.att, request, brand);
}
