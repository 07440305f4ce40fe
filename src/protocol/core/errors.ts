/**
 * The single error type of the protocol layer. Every rejection (malformed input, profile violation,
 * bad signature, chain rule, authorization) throws this, so callers can map it to 400/401 in one
 * place. `code` is stable and meant for branching; `message` is for humans and may change.
 */
export type ProtocolErrorCode =
  | 'MALFORMED' // not decodable / wrong shape / grammar violation
  | 'NUMBER_NOT_CANONICAL' // a number outside the integer-only encoding rule
  | 'NOT_CANONICAL' // dag-cbor bytes that are not the canonical encoding of their value
  | 'TOO_LARGE' // a size or cardinality cap
  | 'JWS_PROFILE' // alg / crit / embedded key / typ violation of the verification profile
  | 'SIGNATURE_NON_CANONICAL' // Ed25519 S >= L or not 64 bytes
  | 'SIGNATURE_INVALID' // signature does not verify
  | 'CID_MISMATCH' // header.cid missing or not the payload's CID
  | 'KID_INVALID' // kid has the wrong form or names another DID
  | 'KEY_NOT_FOUND' // kid does not resolve to a key (in the required role)
  | 'NOT_HEAD_EXTENSION' // identity op does not extend the head it is applied to
  | 'CONFLICTING_EXTENSION' // two identity ops share a parent
  | 'CHAIN_INVALID' // genesis/linkage/terminal-state rule
  | 'TIMESTAMP_ORDER' // createdAt not strictly after the parent's
  | 'TIMESTAMP_FUTURE' // createdAt more than 24 h ahead of the verifier clock
  | 'IDENTITY_DELETED' // a deleted identity cannot do this
  | 'UNAUTHORIZED' // signer lacks authority (creator sovereignty, attenuation, audience, root, host)
  | 'CREDENTIAL_EXPIRED' // now >= exp
  | 'CREDENTIAL_NOT_YET_VALID' // now < iat
  | 'CREDENTIAL_REVOKED'
  | 'DELEGATION_TOO_DEEP';

export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';

  constructor(
    readonly code: ProtocolErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Throws a ProtocolError when the condition is false; keeps validation code linear. */
export function ensure(condition: unknown, code: ProtocolErrorCode, message: string): asserts condition {
  if (!condition) throw new ProtocolError(code, message);
}
