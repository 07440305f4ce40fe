import type { EntityManager } from 'typeorm';
import type { StoredHead } from './chain-owner';

/** The first operation of a new content chain, signed by the origin identity, not stored yet. */
export interface SignedGenesis extends StoredHead {
  document: Record<string, unknown>;
  /** The signed operation (a compact JWS). */
  jws: string;
  /** The operation's signed `createdAt`. */
  createdAt: string;
}

/**
 * Starts content chains inside the transaction of the content they follow. The service is both the
 * chain's origin and its relay, on one database: the genesis is signed before the write and its
 * relay rows are written on the write's own transaction, so the content and its chain commit (or
 * roll back) together, without the relay's ingest path for operations from elsewhere
 * (verification against stored state, the pending-operations buffer).
 */
export abstract class ChainGenesis {
  /** Signs a new chain's genesis for `document` (no I/O). */
  abstract sign(document: Record<string, unknown>): SignedGenesis;
  /**
   * Stores `genesis` in the relay on `manager` (one statement) and returns the stored genesis: the
   * same, or, when an identical operation is already stored (the same document signed in the same
   * millisecond), one signed again a millisecond later, as a new chain.
   */
  abstract store(manager: EntityManager, genesis: SignedGenesis): Promise<SignedGenesis>;
}
