import type { IdentityState, MultikeyPublicKey } from '../../core';

/**
 * What request and credential verification need from the relay's identity store. The relay module
 * binds it to its cached state service (see auth.module.ts).
 */
export abstract class IdentityDirectory {
  /** Current folded state of an identity chain, or null when the relay has no such chain. */
  abstract current(did: string): Promise<IdentityState | null>;
  /** Any key that ever appeared in the chain (historical resolution, for credentials), or null. */
  abstract resolveKeyAt(did: string, keyId: string): Promise<MultikeyPublicKey | null>;
}

/**
 * Whether a credential CID has a revocation by its issuer (only the issuer may revoke, CREDENTIALS.md);
 * throws a 503 ApiError when the store cannot answer.
 */
export abstract class RevocationLookup {
  abstract isRevoked(credentialCid: string, issuerDid?: string): Promise<boolean>;
}
