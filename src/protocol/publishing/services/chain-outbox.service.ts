import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock/clock';
import type { ChainOwner } from '../domain/chain-owner';
import { ContentChainSync } from './content-chain-sync.service';

/** The writing request publishes at once; a sweep takes the publication only after this. */
const REQUEST_GRACE_MS = 30_000;
/** A sweep's claim on a publication; a replica that dies mid-publication loses it after this. */
const CLAIM_LEASE_MS = 60_000;
const MAX_BACKOFF_MS = 10 * 60_000;
const SWEEP_BATCH = 50;

interface Pending {
  owner: string;
  subjectId: string;
  startNewChain: boolean;
  version: number;
  attempts: number;
}

/**
 * The transactional outbox of content chain publication. A module whose content has a public
 * chain enqueues the content inside the transaction that changes it, then settles it after commit
 * (the request answers with the chain in place when the relay is well). What a crash, a relay
 * failure or a database fault leaves behind is retried by the sweep job (ChainOutboxSweeper) until
 * the chain matches the row: a post that is public always gets its chain.
 */
@Injectable()
export class ChainOutbox {
  private readonly logger = new Logger(ChainOutbox.name);
  private readonly owners = new Map<string, ChainOwner>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly chains: ContentChainSync,
    private readonly clock: Clock,
  ) {}

  /** Names the owner of a kind of content; `kind` is stored with every publication. */
  register(kind: string, owner: ChainOwner): void {
    this.owners.set(kind, owner);
  }

  /** Records, inside the caller's transaction, that the chains of `ids` must follow their rows. */
  async enqueue(
    manager: EntityManager,
    kind: string,
    ids: string[],
    options: { startNewChain?: boolean } = {},
  ): Promise<void> {
    if (ids.length === 0) return;
    const now = this.clock.now();
    await manager.query(
      `INSERT INTO chain_publications (owner, subject_id, start_new_chain, version, attempts, due_at, created_at)
       SELECT $1, subject_id, $3, 1, 0, $4, $5 FROM unnest($2::uuid[]) AS subject_id
       ON CONFLICT (owner, subject_id) DO UPDATE SET
         start_new_chain = chain_publications.start_new_chain OR EXCLUDED.start_new_chain,
         version = chain_publications.version + 1,
         attempts = 0,
         due_at = EXCLUDED.due_at`,
      [kind, ids, options.startNewChain ?? false, new Date(now.getTime() + REQUEST_GRACE_MS), now],
    );
  }

  /** Publishes the enqueued chains of `ids` now (after commit); never fails: the sweep retries. */
  async settle(kind: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const pending = await this.dataSource
      .query<Pending[]>(
        `SELECT owner, subject_id AS "subjectId", start_new_chain AS "startNewChain", version, attempts
         FROM chain_publications WHERE owner = $1 AND subject_id = ANY($2::uuid[])`,
        [kind, ids],
      )
      .catch((error: Error) => {
        this.logger.warn(`chain publications of ${kind} left to the sweep: ${error.message}`);
        return [];
      });
    for (const publication of pending) await this.publish(publication);
  }

  /** Claims due publications (skipping those another replica holds) and publishes them; the count. */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    const claimed = await this.dataSource.query<[Pending[], number]>(
      `UPDATE chain_publications SET due_at = $2
       WHERE (owner, subject_id) IN (
         SELECT owner, subject_id FROM chain_publications WHERE due_at <= $1
         ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING owner, subject_id AS "subjectId", start_new_chain AS "startNewChain", version, attempts`,
      [now, new Date(now.getTime() + CLAIM_LEASE_MS), SWEEP_BATCH],
    );
    const rows = claimed[0];
    for (const publication of rows) await this.publish(publication);
    return rows.length;
  }

  private async publish(publication: Pending): Promise<void> {
    const owner = this.owners.get(publication.owner);
    if (!owner) return;
    const { subjectId, version } = publication;
    try {
      await this.chains.sync(owner, subjectId, { startNewChain: publication.startNewChain });
      await this.dataSource.query(
        'DELETE FROM chain_publications WHERE owner = $1 AND subject_id = $2 AND version = $3',
        [publication.owner, subjectId, version],
      );
    } catch (error) {
      const attempts = publication.attempts + 1;
      const backoff = Math.min(1000 * 2 ** Math.min(attempts, 20), MAX_BACKOFF_MS);
      this.logger.warn(`${owner.chainName(subjectId)} not published (attempt ${attempts}): ${String(error)}`);
      await this.dataSource
        .query(
          `UPDATE chain_publications SET attempts = $4, due_at = $5, last_error = $6
           WHERE owner = $1 AND subject_id = $2 AND version = $3`,
          [
            publication.owner,
            subjectId,
            version,
            attempts,
            new Date(this.clock.now().getTime() + backoff),
            String(error).slice(0, 1000),
          ],
        )
        .catch(() => undefined);
    }
  }
}
