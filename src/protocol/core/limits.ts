/** Validity bounds from PROTOCOL.md / CREDENTIALS.md. Changing any of these forks validity. */

/** dag-cbor payload of an identity or content op (content: measured without `authorization`). */
export const MAX_OPERATION_BYTES = 65536;
/** The serialized credential JWS token, checked before any decode; bounds the whole `prf` chain. */
export const MAX_CREDENTIAL_TOKEN_BYTES = 262144;
/** Standalone artifacts (revocations are artifacts). */
export const MAX_ARTIFACT_BYTES = 16384;
/** dag-cbor encoding of an identity's `services` array. */
export const MAX_SERVICES_BYTES = 32768;
export const MAX_SERVICES = 256;
/** Per key set (authKeys / assertKeys / controllerKeys). */
export const MAX_KEYS_PER_SET = 256;
export const MAX_CREDENTIAL_ATTENUATIONS = 32;
/** Credentials in a delegation chain, leaf and root inclusive: the 17th is refused. */
export const MAX_DELEGATION_CHAIN_LENGTH = 16;
/** Ingest rejects createdAt further than this ahead of the verifier clock. */
export const MAX_FUTURE_SKEW_MS = 24 * 60 * 60 * 1000;
/** Local DoS guard for canonicalization (resource policy, not validity). */
export const MAX_NESTING_DEPTH = 1024;
