/** Callbacks may answer synchronously (in-memory state) or asynchronously (database, relay). */
export type MaybePromise<T> = T | Promise<T>;

/**
 * Resolves a `did#keyId` kid to the raw 32-byte Ed25519 key or its `z6Mk…` multikey; throws
 * (ideally a ProtocolError) when the key is unknown or its identity may not sign. Whether this is
 * current-state or historical resolution is the caller's choice, per WEB-RELAY.md "Key Resolution".
 */
export type KeyResolver = (kid: string) => MaybePromise<Uint8Array | string>;

/**
 * Is this credential revoked (by this issuer)? `asOf` is set when verifying committed history: the
 * createdAt of the operation being re-verified, for the as-of rule `R.createdAt <= O.createdAt`.
 */
export type RevocationCheck = (
  credentialCid: string,
  issuerDid: string,
  asOf?: string,
) => MaybePromise<boolean>;
