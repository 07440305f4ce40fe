import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { setTimeout as delay } from 'node:timers/promises';
import { Repository } from 'typeorm';
import { documentCid } from '../protocol/core';
import { ContentPublisher, PROFILE_SCHEMA, PublishedContent } from '../protocol/publishing/content-publisher';
import { Space } from './entities/space.entity';

/** Rounds before giving up when concurrent edits (on other replicas) keep moving the chain's head. */
const MAX_ROUNDS = 5;

/**
 * The public profile content chain of a space (design.md §1): while the space's profile is public,
 * its public projection (a profile/v1 document) is the chain's current document, signed by the
 * origin identity; when the profile stops being public (private again, or deleted) the chain gets
 * a delete, and a later public profile starts a new chain.
 *
 * `sync` runs after every space write and is idempotent: an unchanged projection (same document
 * CID) publishes nothing. Syncs of one space run one at a time in this process. Across replicas
 * nothing is locked while the relay ingests (a lock would hold a pooled connection while ingest
 * needs another); instead the new head is stored only if the stored head is still the one it
 * extends. An edit that loses that race retracts the operation it appended (a stray branch, or a
 * stray chain) and repeats the round on the winner's head a few milliseconds later, so its
 * operation is the newest tip and the relay's head (the newest tip wins) is the stored one.
 */
@Injectable()
export class SpaceProfileChain {
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    @InjectRepository(Space) private readonly spaces: Repository<Space>,
    private readonly publisher: ContentPublisher,
  ) {}

  sync(spaceId: string): Promise<void> {
    const previous = this.running.get(spaceId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.rounds(spaceId));
    this.running.set(spaceId, next);
    const forget = () => {
      if (this.running.get(spaceId) === next) this.running.delete(spaceId);
    };
    next.then(forget, forget);
    return next;
  }

  private async rounds(spaceId: string): Promise<void> {
    let stray: PublishedContent | null = null;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      if (round > 0) {
        if (stray) await this.publisher.retract(stray);
        stray = null;
        await delay(2);
      }
      const space = await this.spaces.findOne({ where: { id: spaceId }, withDeleted: true });
      if (!space) return;
      const previous: PublishedContent | null =
        space.profileContentId && space.profileHeadCid
          ? { contentId: space.profileContentId, headCid: space.profileHeadCid }
          : null;
      let next: (PublishedContent & { documentCid: string }) | null = null;
      if (space.isPublic && !space.deletedAt) {
        const document = profileDocument(space);
        const cid = documentCid(document);
        if (round === 0 && previous && space.profileDocumentCid === cid) return;
        next = { ...(await this.publisher.publish(previous, document)), documentCid: cid };
      } else {
        if (!previous) return;
        await this.publisher.retract(previous);
      }
      const stored = await this.spaces
        .createQueryBuilder()
        .update(Space)
        .set({
          profileContentId: next?.contentId ?? null,
          profileHeadCid: next?.headCid ?? null,
          profileDocumentCid: next?.documentCid ?? null,
        })
        .where('id = :spaceId', { spaceId })
        .andWhere(previous ? 'profile_head_cid = :head' : 'profile_head_cid IS NULL', {
          head: previous?.headCid,
        })
        .updateEntity(false)
        .execute();
      if (stored.affected === 1) return;
      stray = next;
    }
    throw new Error(`the profile chain of space ${spaceId} kept moving`);
  }
}

/** The public projection of a space's profile: profile/v1 with name, description and links. */
export function profileDocument(space: Space): Record<string, unknown> {
  return {
    $schema: PROFILE_SCHEMA,
    ...(space.displayName ? { name: space.displayName } : {}),
    ...(space.description ? { description: space.description } : {}),
    ...(space.links.length > 0
      ? {
          links: space.links.map((link) => ({
            uri: link.url,
            ...(link.label ? { label: link.label } : {}),
            ...(link.description ? { description: link.description } : {}),
          })),
        }
      : {}),
  };
}
