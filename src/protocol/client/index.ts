/**
 * PLAT client: identities (keys, genesis and key updates, key files), request proofs (design.md §3),
 * credentials and revocations (§4), and an HTTP client over global fetch that finds the relay
 * through the discovery document. Built on the protocol core; no NestJS.
 */
export * from './identity';
export * from './key-file';
export * from './request-proof';
export * from './credentials';
export * from './http-client';
