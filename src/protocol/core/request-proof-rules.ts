import { createHash } from 'node:crypto';

/**
 * The request-proof rules of design.md §3 that the signer (client) and the verifier (API) must
 * apply identically: one definition, so the two sides cannot drift apart.
 */

/** The Authorization scheme: `PLAT <compact JWS>`. */
export const PROOF_SCHEME = 'PLAT';
export const JTI_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;
/** `iat < exp <= iat + 300`. */
export const MAX_PROOF_LIFETIME_SECONDS = 300;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Writes carry a `jti` and are replay-protected. */
export function isWriteMethod(method: string): boolean {
  return WRITE_METHODS.has(method.toUpperCase());
}

/** `ath`: base64url(sha256(the X-Credential header value)). */
export function credentialHash(credential: string): string {
  return createHash('sha256').update(credential, 'utf8').digest('base64url');
}
