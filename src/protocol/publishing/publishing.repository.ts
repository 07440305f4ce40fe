import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { defineStatements } from '../../infrastructure/database/statements';
import type { OutboxBacklog } from '../../infrastructure/metrics/outbox-backlog';

/**
 * The publishing module's fixed SQL on `chain_publications`, the content chain outbox
 * (docs/decisions/0131-a-repository-per-module.md).
 */
export const PUBLISHING_STATEMENTS = defineStatements('PublishingRepository', {
  /**
   * Enqueues the chains of owner $1's subjects $2 ($3 start a new chain, due at $4, created at $5);
   * one already enqueued gets a new version, due again.
   */
  enqueue: `INSERT INTO chain_publications (owner, subject_id, start_new_chain, version, attempts, due_at, created_at)
       SELECT $1, subject_id, $3, 1, 0, $4, $5 FROM unnest($2::uuid[]) AS subject_id
       ON CONFLICT (owner, subject_id) DO UPDATE SET
         start_new_chain = chain_publications.start_new_chain OR EXCLUDED.start_new_chain,
         version = chain_publications.version + 1,
         attempts = 0,
         due_at = EXCLUDED.due_at`,
  /** The publications of owner $1's subjects $2. */
  pendingOf: `SELECT owner, subject_id AS "subjectId", start_new_chain AS "startNewChain", version, attempts
         FROM chain_publications WHERE owner = $1 AND subject_id = ANY($2::uuid[])`,
  /** Claims up to $3 publications due at $1 until $2, skipping those another replica holds. */
  claimDue: `UPDATE chain_publications SET due_at = $2
       WHERE (owner, subject_id) IN (
         SELECT owner, subject_id FROM chain_publications WHERE due_at <= $1
         ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING owner, subject_id AS "subjectId", start_new_chain AS "startNewChain", version, attempts`,
  /** A publication done ($1 owner, $2 subject), unless enqueued again since ($3 its version). */
  deletePublished: 'DELETE FROM chain_publications WHERE owner = $1 AND subject_id = $2 AND version = $3',
  /** A failed attempt ($4 attempts, due again at $5, $6 the error) of version $3 of ($1, $2). */
  recordFailure: `UPDATE chain_publications SET attempts = $4, due_at = $5, last_error = $6
           WHERE owner = $1 AND subject_id = $2 AND version = $3`,
  /** The backlog: rows not yet published and the oldest one's creation. */
  backlog: 'SELECT count(*)::int AS pending, min(created_at) AS oldest FROM chain_publications',
});

/** A publication as the outbox works on it. */
export interface PendingPublication {
  owner: string;
  subjectId: string;
  startNewChain: boolean;
  version: number;
  attempts: number;
}

/** Every statement on `chain_publications`. */
@Injectable()
export class PublishingRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async enqueue(
    owner: string,
    ids: string[],
    startNewChain: boolean,
    dueAt: Date,
    createdAt: Date,
    runner: EntityManager,
  ): Promise<void> {
    await runner.query(PUBLISHING_STATEMENTS.enqueue, [owner, ids, startNewChain, dueAt, createdAt]);
  }

  pendingOf(owner: string, ids: string[]): Promise<PendingPublication[]> {
    return this.dataSource.query<PendingPublication[]>(PUBLISHING_STATEMENTS.pendingOf, [owner, ids]);
  }

  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<PendingPublication[]> {
    const claimed = await this.dataSource.query<[PendingPublication[], number]>(
      PUBLISHING_STATEMENTS.claimDue,
      [now, leaseUntil, limit],
    );
    return claimed[0];
  }

  async deletePublished(publication: PendingPublication): Promise<void> {
    await this.dataSource.query(PUBLISHING_STATEMENTS.deletePublished, [
      publication.owner,
      publication.subjectId,
      publication.version,
    ]);
  }

  async recordFailure(
    publication: PendingPublication,
    attempts: number,
    dueAt: Date,
    error: string,
  ): Promise<void> {
    await this.dataSource.query(PUBLISHING_STATEMENTS.recordFailure, [
      publication.owner,
      publication.subjectId,
      publication.version,
      attempts,
      dueAt,
      error,
    ]);
  }

  async backlog(): Promise<OutboxBacklog> {
    const [row] = await this.dataSource.query<OutboxBacklog[]>(PUBLISHING_STATEMENTS.backlog);
    return row;
  }
}
