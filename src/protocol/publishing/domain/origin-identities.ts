/** An identity chain the service created for one of its own entities (a space, a group). */
export interface IssuedIdentity {
  did: string;
  headCid: string;
}

/**
 * Creates identity chains signed by the service's origin key (design.md §1: spaces and groups get
 * identity chains signed by the origin key) and ingests them into the embedded relay.
 */
export abstract class OriginIdentities {
  abstract createIdentity(): Promise<IssuedIdentity>;
  /** The current head of such a chain (e.g. for a space's `protocol.headOpCid`). */
  abstract headOf(did: string): Promise<string | null>;
  /**
   * A detached Ed25519 signature of `message` by the origin key, and the origin identity's DID
   * whose assert key verifies it (webhook deliveries' `v1a` signature,
   * docs/decisions/0163-webhook-signatures.md).
   */
  abstract signAsOrigin(message: Uint8Array): { did: string; signature: Uint8Array };
}
