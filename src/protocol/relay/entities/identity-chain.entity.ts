import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { IdentityState, MultikeyPublicKey } from '../../core';

/** The folded head of one identity chain (the chain itself is its ops in relay_operations). */
// Only the deleted ones: the published view `deactivated_identities` reads them
// (docs/decisions/0190-deactivation-follows-the-identity-chain.md).
@Index('idx_relay_identity_chains_deleted', ['did'], { where: '"is_deleted"' })
@Entity({ name: 'relay_identity_chains' })
export class RelayIdentityChain {
  @PrimaryColumn({ type: 'varchar', length: 64, collation: 'C' })
  did: string;

  @Column({ name: 'genesis_cid', type: 'varchar', length: 64, collation: 'C' })
  genesisCid: string;

  @Column({ name: 'head_cid', type: 'varchar', length: 64, collation: 'C' })
  headCid: string;

  @Column({ name: 'genesis_at', type: 'varchar', length: 24, collation: 'C' })
  genesisAt: string;

  @Column({ name: 'head_at', type: 'varchar', length: 24, collation: 'C' })
  headAt: string;

  @Column({ name: 'op_count', type: 'integer' })
  opCount: number;

  @Column({ name: 'is_deleted', type: 'boolean' })
  isDeleted: boolean;

  /** The library's IdentityState after the head operation. */
  @Column({ type: 'jsonb' })
  state: IdentityState;

  /** Every key that ever appeared in a create/update (historical resolution), oldest first. */
  @Column({ name: 'key_history', type: 'jsonb' })
  keyHistory: MultikeyPublicKey[];

  /** The contentId of the profile-labelled ContentAnchor service (index projection), if any. */
  // Indexed: a nameContains search starts from the matching documents and joins back through it.
  @Index('idx_relay_identity_chains_profile_anchor')
  @Column({ name: 'profile_anchor', type: 'varchar', length: 64, collation: 'C', nullable: true })
  profileAnchor: string | null;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3, default: () => 'now()' })
  updatedAt: Date;
}
