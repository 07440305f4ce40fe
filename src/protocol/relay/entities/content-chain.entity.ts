import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { ContentChainState } from '../../core';

/** The selected head of one content chain (its DAG of ops lives in relay_operations). */
@Entity({ name: 'relay_content_chains' })
export class RelayContentChain {
  @PrimaryColumn({ name: 'content_id', type: 'varchar', length: 64, collation: 'C' })
  contentId: string;

  @Index('idx_relay_content_chains_creator')
  @Column({ name: 'creator_did', type: 'varchar', length: 64, collation: 'C' })
  creatorDid: string;

  @Column({ name: 'genesis_cid', type: 'varchar', length: 64, collation: 'C' })
  genesisCid: string;

  @Column({ name: 'head_cid', type: 'varchar', length: 64, collation: 'C' })
  headCid: string;

  @Column({ name: 'genesis_at', type: 'varchar', length: 24, collation: 'C' })
  genesisAt: string;

  @Column({ name: 'head_at', type: 'varchar', length: 24, collation: 'C' })
  headAt: string;

  /** Operations across all branches. */
  @Column({ name: 'op_count', type: 'integer' })
  opCount: number;

  @Column({ name: 'is_deleted', type: 'boolean' })
  isDeleted: boolean;

  @Index('idx_relay_content_chains_document')
  @Column({ name: 'current_document_cid', type: 'varchar', length: 64, collation: 'C', nullable: true })
  currentDocumentCid: string | null;

  /** The library's ContentChainState at the selected head. */
  @Column({ type: 'jsonb' })
  state: ContentChainState;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3, default: () => 'now()' })
  updatedAt: Date;
}
