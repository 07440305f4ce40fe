import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  type ChainOwner,
  type ChainState,
  type StoredHead,
  ChainOutboxService,
  type PublishedContent,
} from '../../protocol';
import { SpacesRepository } from '../repositories/spaces.repository';
import { profileDocument } from '../domain/profile-document';

const PROFILE_CHAIN_OWNER = 'space-profile';

/**
 * The public profile content chain of a space (design.md §1): while the space's profile is public,
 * its public projection (a profile/v1 document) is the chain's current document, signed by the
 * origin identity; when the profile stops being public (private again, or deleted) the chain gets
 * a delete, and a later public profile starts a new chain.
 *
 * A space write enqueues the space in the chain outbox inside its transaction and settles it after
 * commit; the outbox's sweep retries a publication that failed, so a relay failure never fails the
 * committed write nor leaves the chain behind. ContentChainSyncService drives the chain (one sync at a time
 * per space, compare-and-set on the stored head across replicas), this class reads the space and
 * stores its head.
 */
@Injectable()
export class SpaceProfileChainService implements ChainOwner, OnModuleInit {
  constructor(
    private readonly spaces: SpacesRepository,
    private readonly outbox: ChainOutboxService,
  ) {}

  onModuleInit(): void {
    this.outbox.register(PROFILE_CHAIN_OWNER, this);
  }

  enqueue(manager: EntityManager, spaceId: string): Promise<void> {
    return this.outbox.enqueue(manager, PROFILE_CHAIN_OWNER, [spaceId]);
  }

  settle(spaceId: string): Promise<void> {
    return this.outbox.settle(PROFILE_CHAIN_OWNER, [spaceId]);
  }

  chainName(spaceId: string): string {
    return `the profile chain of space ${spaceId}`;
  }

  async state(spaceId: string): Promise<ChainState | null> {
    const space = await this.spaces.findWithDeleted(spaceId);
    if (!space) return null;
    return {
      head:
        space.profileContentId && space.profileHeadCid
          ? { contentId: space.profileContentId, headCid: space.profileHeadCid }
          : null,
      headDocumentCid: space.profileDocumentCid,
      document: space.isPublic && !space.deletedAt ? profileDocument(space) : null,
    };
  }

  async storeHead(
    spaceId: string,
    expected: PublishedContent | null,
    next: StoredHead | null,
  ): Promise<boolean> {
    return this.spaces.storeProfileHead(spaceId, expected?.headCid ?? null, {
      contentId: next?.contentId ?? null,
      headCid: next?.headCid ?? null,
      documentCid: next?.documentCid ?? null,
    });
  }
}
