import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock/clock';
import type { ChainOwner } from '../domain/chain-owner';
import { PublishingRepository, type PendingPublication } from '../publishing.repository';
import { ContentChainSyncService } from './content-chain-sync.service';

/** The writing request publishes at once; a sweep takes the publication only after this. */
const REQUEST_GRACE_MS = 30_000;
/** A sweep's claim on a publication; a replica that dies mid-publication loses it after this. */
const CLAIM_LEASE_MS = 60_000;
const MAX_BACKOFF_MS = 10 * 60_000;
const SWEEP_BATCH = 50;

/**
 * The transactional outbox of content chain publication. A module whose content has a public
 * chain enqueues the content inside the transaction that changes it, then settles it after commit
 * (the request answers with the chain in place when the relay is well). What a crash, a relay
 * failure or a database fault leaves behind is retried by the sweep job (ChainOutboxSweepSubscriber) until
 * the chain matches the row: a post that is public always gets its chain.
 */
@Injectable()
export class ChainOutboxService {
  private readonly logger = new Logger(ChainOutboxService.name);
  private readonly owners = new Map<string, ChainOwner>();

  constructor(
    private readonly repository: PublishingRepository,
    private readonly chains: ContentChainSyncService,
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
    await this.repository.enqueue(
      kind,
      ids,
      options.startNewChain ?? false,
      new Date(now.getTime() + REQUEST_GRACE_MS),
      now,
      manager,
    );
  }

  /** Publishes the enqueued chains of `ids` now (after commit); never fails: the sweep retries. */
  async settle(kind: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const pending = await this.repository.pendingOf(kind, ids).catch((error: Error) => {
      this.logger.warn(`chain publications of ${kind} left to the sweep: ${error.message}`);
      return [] as PendingPublication[];
    });
    for (const publication of pending) await this.publish(publication);
  }

  /** Claims due publications (skipping those another replica holds) and publishes them; the count. */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    const rows = await this.repository.claimDue(now, new Date(now.getTime() + CLAIM_LEASE_MS), SWEEP_BATCH);
    for (const publication of rows) await this.publish(publication);
    return rows.length;
  }

  private async publish(publication: PendingPublication): Promise<void> {
    const owner = this.owners.get(publication.owner);
    if (!owner) return;
    const { subjectId } = publication;
    try {
      await this.chains.sync(owner, subjectId, { startNewChain: publication.startNewChain });
      await this.repository.deletePublished(publication);
    } catch (error) {
      const attempts = publication.attempts + 1;
      const backoff = Math.min(1000 * 2 ** Math.min(attempts, 20), MAX_BACKOFF_MS);
      this.logger.warn(`${owner.chainName(subjectId)} not published (attempt ${attempts}): ${String(error)}`);
      await this.repository
        .recordFailure(
          publication,
          attempts,
          new Date(this.clock.now().getTime() + backoff),
          String(error).slice(0, 1000),
        )
        .catch(() => undefined);
    }
  }
}
