import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** Stored states; `expired` is not stored: an open ceremony past `expiresAt` reads as expired. */
export type StoredCeremonyStatus = 'pending' | 'presented' | 'adopted' | 'rejected' | 'failed';

/**
 * One key-proof ceremony (api-spec.md "Key-proof documents", design.md §10): the owner opens it, a
 * tool on another machine presents a signed envelope for a new key, the owner adopts or declines.
 * `prevCID` is the head the presented envelope is bound to (the head at creation until then).
 */
@Entity({ name: 'key_proof_ceremonies' })
@Index('idx_key_proof_ceremonies_owner', ['ownerDid'])
@Index('idx_key_proof_ceremonies_presented_key', ['presentedKey'])
export class KeyProofCeremony {
  /** Eight characters of the ID alphabet. */
  @PrimaryColumn({ type: 'varchar', length: 8 })
  code: string;

  @Column({ name: 'owner_did', type: 'varchar', length: 64 })
  ownerDid: string;

  /** Canonical comma-joined role set, roles in the order auth, assert, controller. */
  @Column({ name: 'role_set', type: 'varchar', length: 32 })
  roleSet: string;

  @Column({ name: 'prev_cid', type: 'varchar', length: 128 })
  prevCid: string;

  @Column({ type: 'varchar', length: 64 })
  nonce: string;

  @Column({ type: 'varchar', length: 16 })
  status: StoredCeremonyStatus;

  /** publicKeyMultibase of the presented key. */
  @Column({ name: 'presented_key', type: 'varchar', length: 128, nullable: true })
  presentedKey: string | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  description: string | null;

  @Column({ type: 'text', nullable: true })
  envelope: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz', precision: 3 })
  expiresAt: Date;

  @Column({ name: 'adopted_key_id', type: 'varchar', length: 128, nullable: true })
  adoptedKeyId: string | null;

  @Column({ name: 'chain_op_cid', type: 'varchar', length: 128, nullable: true })
  chainOpCid: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
