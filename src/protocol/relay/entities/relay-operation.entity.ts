import { Column, Entity, Generated, Index, PrimaryColumn } from 'typeorm';

/** What a stored operation is (WEB-RELAY.md "Operation Log", `entries[].kind`). */
export type RelayOperationKind = 'identity-op' | 'content-op' | 'revocation' | 'credential';

/**
 * One verified, committed operation. `seq` is the relay-local ingestion order that the logs page
 * by; protocol ordering (createdAt, CIDs) is compared byte-wise, hence the "C" collation.
 */
@Entity({ name: 'relay_operations' })
// Identity chains are linear: a second child of a committed identity op cannot be stored, even by
// two concurrent transactions (the chain row lock is the first line, this index the last).
@Index('uq_relay_operations_identity_parent', ['chainId', 'previousCid'], {
  unique: true,
  where: `"kind" = 'identity-op' AND "previous_cid" IS NOT NULL`,
})
@Index('idx_relay_operations_chain_seq', ['chainId', 'kind', 'seq'])
@Index('idx_relay_operations_chain_time', ['chainId', 'kind', 'createdAt', 'cid'])
@Index('idx_relay_operations_previous', ['previousCid'])
@Index('idx_relay_operations_signer', ['signerDid', 'kind', 'chainId'])
export class RelayOperation {
  @PrimaryColumn({ type: 'varchar', length: 64, collation: 'C' })
  cid: string;

  @Index('uq_relay_operations_seq', { unique: true })
  @Column({ type: 'bigint' })
  @Generated('increment')
  seq: string;

  @Column({ type: 'varchar', length: 16 })
  kind: RelayOperationKind;

  /** DID (identity ops, revocations, credentials: the signer/issuer) or contentId (content ops). */
  @Column({ name: 'chain_id', type: 'varchar', length: 64, collation: 'C' })
  chainId: string;

  @Column({ type: 'text' })
  jws: string;

  @Column({ name: 'signer_did', type: 'varchar', length: 64, collation: 'C' })
  signerDid: string;

  /** The signed `createdAt` (a credential's `iat`, as a createdAt string). */
  @Column({ name: 'created_at', type: 'varchar', length: 24, collation: 'C' })
  createdAt: string;

  @Column({ name: 'previous_cid', type: 'varchar', length: 64, collation: 'C', nullable: true })
  previousCid: string | null;

  /** create / update / delete / restore for chain operations. */
  @Column({ name: 'op_type', type: 'varchar', length: 16, nullable: true })
  opType: string | null;

  /** Content ops: the document after the operation (null when cleared or deleted). */
  @Column({ name: 'document_cid', type: 'varchar', length: 64, collation: 'C', nullable: true })
  documentCid: string | null;

  @Column({ name: 'ingested_at', type: 'timestamptz', precision: 3, default: () => 'now()' })
  ingestedAt: Date;
}
