/**
 * PLAT v1 protocol primitives (pure TypeScript, no NestJS): encoding and CIDs, identifiers, keys,
 * the JWS verification profile, identity and content chains, credentials and revocations.
 * Every rejection throws ProtocolError.
 */
export * from './errors';
export * from './brand';
export * from './limits';
export { base64urlDecode, base64urlEncode, fromHex, toHex } from './bytes';
export * from './encoding';
export * from './cid';
export * from './ids';
export * from './multikey';
export * from './ed25519';
export * from './signer';
export * from './jws';
export * from './kid';
export * from './timestamp';
export * from './key-resolution';
export * from './identity-operation';
export * from './identity-state';
export * from './identity-chain';
export * from './content-operation';
export * from './head-selection';
export * from './content-chain';
export * from './attenuation';
export * from './credentials';
export * from './revocation';
export * from './classify';
export * from './request-proof-rules';
