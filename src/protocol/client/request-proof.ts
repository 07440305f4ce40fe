import { randomBytes } from 'node:crypto';
import {
  AUTH_TOKEN_TYP,
  credentialHash,
  didUrl,
  isWriteMethod,
  JTI_PATTERN,
  MAX_PROOF_LIFETIME_SECONDS,
  PROOF_SCHEME,
  signJws,
  systemClock,
  type Clock,
} from '../core';
import type { ProofIdentity } from './identity';

// The rules shared with the verifier, re-exported as part of the client's API.
export { credentialHash, isWriteMethod, JTI_PATTERN, MAX_PROOF_LIFETIME_SECONDS, PROOF_SCHEME };

export const DEFAULT_PROOF_LIFETIME_SECONDS = 120;

/** 32 base64url characters of fresh randomness (192 bits). */
export function randomJti(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * The URL as the client puts it on the wire: no fragment, and no bare `?` before an empty query.
 * Node 20's fetch drops that `?` and Node 24's sends it, so the signed target would otherwise
 * depend on the runtime. Pass this to `fetch` and sign `requestTarget` of it.
 */
export function requestUrl(url: URL | string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  if (parsed.search === '') parsed.search = ''; // setting '' clears the query, `?` included
  return parsed.href;
}

/**
 * The request target of `requestUrl(url)` as `fetch` (undici) sends it: `pathname + search`, i.e.
 * the normalized path and `?` plus the raw query when the query is non-empty, never the fragment.
 */
export function requestTarget(url: URL | string): string {
  const parsed = new URL(url);
  if (parsed.username || parsed.password) throw new TypeError('request URLs must not carry credentials');
  return parsed.pathname + parsed.search;
}

export interface RequestProofInput {
  identity: ProofIdentity;
  /** this API's host (`PUBLIC_HOST`), e.g. `api.plat.example` */
  audience: string;
  method: string;
  /** path, plus `?` and the raw query when present, byte for byte as sent */
  target: string;
  /** the X-Credential value, when one is sent: binds it through `ath` */
  credential?: string;
  /**
   * A string is used as the `jti`; `true` generates one, `false` omits it. Default: generated on
   * writes (POST, PUT, PATCH, DELETE), omitted on reads.
   */
  jti?: string | boolean;
  /** seconds from `iat` to `exp`, 1..300 (default 120) */
  lifetimeSeconds?: number;
  clock?: Clock;
}

export interface SignedRequestProof {
  /** the compact JWS */
  readonly token: string;
  /** `PLAT <token>`, the Authorization header value */
  readonly authorization: string;
  readonly claims: RequestProofClaims;
}

export interface RequestProofClaims {
  iss: string;
  sub: string;
  aud: string;
  htm: string;
  htu: string;
  iat: number;
  exp: number;
  jti?: string;
  ath?: string;
}

/**
 * A request proof (design.md §3): header exactly `{"alg":"EdDSA","typ":"JWT","kid":"<did>#<keyId>"}`,
 * signed by a key of the identity's `authKeys`; claims iss = sub = DID, aud, htm, htu, iat, exp and,
 * as applicable, jti and ath.
 */
export function signRequestProof(input: RequestProofInput): SignedRequestProof {
  const lifetime = input.lifetimeSeconds ?? DEFAULT_PROOF_LIFETIME_SECONDS;
  if (!Number.isSafeInteger(lifetime) || lifetime < 1 || lifetime > MAX_PROOF_LIFETIME_SECONDS) {
    throw new RangeError(`proof lifetime must be 1..${MAX_PROOF_LIFETIME_SECONDS} seconds`);
  }
  if (!input.target.startsWith('/'))
    throw new TypeError(`request target must start with "/": ${input.target}`);
  const method = input.method.toUpperCase();
  const jti =
    typeof input.jti === 'string'
      ? input.jti
      : (input.jti ?? isWriteMethod(method))
        ? randomJti()
        : undefined;
  if (jti !== undefined && !JTI_PATTERN.test(jti)) {
    throw new TypeError(`jti must match ${JTI_PATTERN.source}`);
  }
  const iat = Math.floor((input.clock ?? systemClock)().getTime() / 1000);
  const { did, authKey } = input.identity;
  const claims: RequestProofClaims = {
    iss: did,
    sub: did,
    aud: input.audience,
    htm: method,
    htu: input.target,
    iat,
    exp: iat + lifetime,
    ...(jti !== undefined ? { jti } : {}),
    ...(input.credential !== undefined ? { ath: credentialHash(input.credential) } : {}),
  };
  const token = signJws({ typ: AUTH_TOKEN_TYP, kid: didUrl(did, authKey.keyId) }, claims, authKey);
  return { token, authorization: `${PROOF_SCHEME} ${token}`, claims };
}

/** The `Authorization: PLAT <jws>` header value for one request. */
export function requestProofHeader(input: RequestProofInput): string {
  return signRequestProof(input).authorization;
}
