import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { RelayOperationKind } from './relay-operation.entity';

/**
 * The store-then-verify buffer (WEB-RELAY.md "Convergence"): a structurally well-formed operation
 * that a public ingest batch could not verify only because a causal dependency is missing (unknown
 * identity, unknown previous operation, content chain not created yet). Re-attempted after each
 * ingest batch that changed state; removed once sequenced, found a duplicate, permanently rejected
 * or expired.
 */
@Entity({ name: 'relay_pending_operations' })
@Index('idx_relay_pending_operations_received', ['receivedAt', 'cid'])
export class RelayPendingOperation {
  @PrimaryColumn({ type: 'varchar', length: 64, collation: 'C' })
  cid: string;

  /** The raw JWS token as received. */
  @Column({ type: 'text' })
  jws: string;

  @Column({ type: 'varchar', length: 16 })
  kind: RelayOperationKind;

  /** First receipt (resubmissions keep it): the expiry counts from here. */
  @Column({ name: 'received_at', type: 'timestamptz', precision: 3 })
  receivedAt: Date;
}
