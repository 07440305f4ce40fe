import { Injectable } from '@nestjs/common';
import { setTimeout as delay } from 'node:timers/promises';
import { documentCid } from '../../core';
import type { ChainOwner, StoredHead } from '../domain/chain-owner';
import { ContentPublisher, type PublishedContent } from '../domain/content-publisher';
import { PerKeyQueue } from '../domain/per-key-queue';

/** Rounds before giving up when concurrent edits (on other replicas) keep moving the chain's head. */
export const MAX_SYNC_ROUNDS = 5;
/** Pause before a repeated round, so its operation is newer than the winner's (ms-precision times). */
const ROUND_DELAY_MS = 2;

export interface ChainSyncOptions {
  /** Retract the stored chain and start a new one (a field fixed at genesis changed). */
  startNewChain?: boolean;
}

/**
 * Keeps an owner's public content in line with its content chain (design.md §1): while the content
 * is public its projection is the chain's current document, signed by the origin identity; when it
 * stops being public the chain gets a delete, and public again starts a new chain. An unchanged
 * projection (same document CID) publishes nothing.
 *
 * Syncs of one chain run one at a time in this process. Across replicas nothing is locked while the
 * relay ingests (a lock would hold a pooled connection while ingest needs another); instead the
 * owner stores the new head only if its stored head is still the one it extends. A sync that loses
 * that race retracts the operation it appended (a stray branch, or a stray chain) and repeats the
 * round on the winner's head a few milliseconds later, so its operation is the newest tip and the
 * relay's head (the newest tip wins) is the stored one.
 */
@Injectable()
export class ContentChainSyncService {
  private readonly queue = new PerKeyQueue();

  constructor(private readonly publisher: ContentPublisher) {}

  /**
   * Brings the chain of the owner's content `id` in line with it. Syncs with the same chain name run
   * one at a time; a failure rejects (the ChainOutboxService retries it).
   */
  sync(owner: ChainOwner, id: string, options: ChainSyncOptions = {}): Promise<void> {
    return this.queue.run(owner.chainName(id), () => this.rounds(owner, id, options.startNewChain ?? false));
  }

  private async rounds(owner: ChainOwner, id: string, startNewChain: boolean): Promise<void> {
    let stray: PublishedContent | null = null;
    for (let round = 0; round < MAX_SYNC_ROUNDS; round++) {
      if (round > 0) {
        if (stray) await this.publisher.retract(stray);
        stray = null;
        await delay(ROUND_DELAY_MS);
      }
      const state = await owner.state(id);
      if (!state) return;
      const { head, document } = state;
      let next: StoredHead | null = null;
      if (document) {
        const cid = documentCid(document);
        if (round === 0 && head && state.headDocumentCid === cid) return;
        const restart = head !== null && startNewChain;
        if (restart) await this.publisher.retract(head);
        next = { ...(await this.publisher.publish(restart ? null : head, document)), documentCid: cid };
      } else {
        if (!head) return;
        await this.publisher.retract(head);
      }
      if (await owner.storeHead(id, head, next)) return;
      stray = next;
    }
    throw new Error(`${owner.chainName(id)} kept moving`);
  }
}
