import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A content chain that must be brought in line with its owner's row (the outbox of design.md §1
 * publishing). Written in the same transaction as the change it publishes; deleted once the chain
 * matches. `version` grows with every change enqueued, so a publication that ran on an older
 * version never deletes a newer one.
 */
@Entity({ name: 'chain_publications' })
@Index('idx_chain_publications_due', ['dueAt'])
export class ChainPublication {
  /** Which ChainOwner holds the content, e.g. `post`. */
  @PrimaryColumn({ type: 'varchar', length: 32 })
  owner: string;

  @PrimaryColumn({ name: 'subject_id', type: 'uuid' })
  subjectId: string;

  /** Retract the stored chain and start a new one (a field fixed at genesis changed). */
  @Column({ name: 'start_new_chain', type: 'boolean' })
  startNewChain: boolean;

  @Column({ type: 'integer' })
  version: number;

  @Column({ type: 'integer' })
  attempts: number;

  /** When a sweep may take it: after the writing request had its chance, or after a backoff. */
  @Column({ name: 'due_at', type: 'timestamptz' })
  dueAt: Date;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
