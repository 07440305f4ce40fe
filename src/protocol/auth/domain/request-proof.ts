import {
  AUTH_TOKEN_TYP,
  credentialHash,
  decodeJws,
  isWriteMethod,
  JTI_PATTERN,
  MAX_PROOF_LIFETIME_SECONDS,
  PROOF_SCHEME,
  isPlatDid,
  ProtocolError,
  resolveCurrentKey,
  verifyJwsSignature,
  type IdentityState,
  type KeyRole,
} from '../../core';

const MAX_PAST_SECONDS = 300;
const MAX_FUTURE_SECONDS = 60;

export class ProofRejected extends Error {}

export interface ProofRequest {
  method: string;
  /** The request target exactly as sent: path plus `?query` when present. */
  target: string;
  authorization: string;
  credential?: string;
}

export interface VerifiedProof {
  did: string;
  keyId: string;
  roles: KeyRole[];
  jti?: string;
  isWrite: boolean;
}

export interface ProofContext {
  audience: string;
  now: Date;
  stateOf: (did: string) => Promise<IdentityState | null>;
}

/**
 * Verifies a request proof (design.md §3). Every failure is a ProofRejected (the caller answers 401);
 * the key comes from the signer's **current** chain state, so a removed key stops at once.
 */
export async function verifyRequestProof(
  request: ProofRequest,
  context: ProofContext,
): Promise<VerifiedProof> {
  const decoded = decodeOrReject(proofToken(request.authorization));
  const claims = decoded.payload;
  const iss = claims.iss;
  if (typeof iss !== 'string' || !isPlatDid(iss)) throw new ProofRejected('iss must be a did:plat DID');
  if (claims.sub !== iss) throw new ProofRejected('sub must equal iss');
  if (claims.aud !== context.audience) throw new ProofRejected('aud does not name this API');
  if (claims.htm !== request.method.toUpperCase())
    throw new ProofRejected('htm does not match the request method');
  if (claims.htu !== request.target) throw new ProofRejected('htu does not match the request target');
  checkWindow(claims.iat, claims.exp, context.now);
  const isWrite = isWriteMethod(request.method);
  const jti = claims.jti;
  if (jti !== undefined && (typeof jti !== 'string' || !JTI_PATTERN.test(jti)))
    throw new ProofRejected('malformed jti');
  if (isWrite && jti === undefined) throw new ProofRejected('jti is required on writes');
  if (request.credential !== undefined) {
    const expected = credentialHash(request.credential);
    if (claims.ath !== expected) throw new ProofRejected('ath does not match X-Credential');
  }
  const state = await context.stateOf(iss);
  if (!state) throw new ProofRejected('unknown identity');
  try {
    const key = resolveCurrentKey(state, decoded.header.kid);
    if (key.did !== iss) throw new ProofRejected('kid must name the iss identity');
    verifyJwsSignature(decoded, key.publicKey);
    return { did: iss, keyId: key.keyId, roles: key.roles, jti: jti as string | undefined, isWrite };
  } catch (error) {
    if (error instanceof ProtocolError) throw new ProofRejected(error.message);
    throw error;
  }
}

/**
 * The token of `PLAT <compact JWS>`: the scheme word exactly, one space, then a token with no
 * whitespace (design.md §3 writes exactly that form; anything looser is 401, never a guess).
 */
function proofToken(authorization: string): string {
  const prefix = `${PROOF_SCHEME} `;
  const token = authorization.startsWith(prefix) ? authorization.slice(prefix.length) : '';
  if (!token || /\s/.test(token)) throw new ProofRejected('Authorization must be "PLAT <proof>"');
  return token;
}

function decodeOrReject(token: string) {
  try {
    return decodeJws(token, { expectedTyp: AUTH_TOKEN_TYP });
  } catch (error) {
    if (error instanceof ProtocolError) throw new ProofRejected(error.message);
    throw error;
  }
}

function checkWindow(iat: unknown, exp: unknown, now: Date): void {
  if (!Number.isSafeInteger(iat) || !Number.isSafeInteger(exp))
    throw new ProofRejected('iat and exp must be integers');
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const issued = iat as number;
  const expires = exp as number;
  if (issued < nowSeconds - MAX_PAST_SECONDS || issued > nowSeconds + MAX_FUTURE_SECONDS) {
    throw new ProofRejected('iat is outside the accepted window');
  }
  if (expires <= issued || expires > issued + MAX_PROOF_LIFETIME_SECONDS)
    throw new ProofRejected('exp must be within 300 s after iat');
  if (expires <= nowSeconds) throw new ProofRejected('proof has expired');
}
