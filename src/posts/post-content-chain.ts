import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { setTimeout as delay } from 'node:timers/promises';
import { Repository } from 'typeorm';
import { documentCid } from '../protocol/core';
import { ContentPublisher, PublishedContent } from '../protocol/publishing/content-publisher';
import { SpaceDirectory } from '../spaces/space-directory';
import { Post } from './entities/post.entity';
import { applyFold } from './rendering/post-text';

export const POST_SCHEMA = 'https://schemas.dfos.com/post/v1';

/** Rounds before giving up when concurrent edits (on other replicas) keep moving the chain's head. */
const MAX_ROUNDS = 5;

/**
 * The content chain of a public post (protocol CONTENT-MODEL.md `post/v1`, design.md §1): while a
 * post is live in a live `public` topic of a space with a public profile, its public projection
 * (format, publishedAt, title, the above-fold body, the author as first credit) is the chain's
 * current document, signed by the origin identity; when it stops being public (deleted, moved to a
 * non-public topic) the chain gets a delete. `format` is fixed at genesis, so a format change
 * retracts the chain and starts a new one.
 *
 * Syncs run after the post's write, one at a time per post in this process; across replicas the
 * new head is stored only if the stored head is still the one it extends (as the space profile
 * chain does). Admin access changes reach here through PostVisibilityFollower.
 */
@Injectable()
export class PostContentChain {
  private readonly logger = new Logger(PostContentChain.name);
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    @InjectRepository(Post) private readonly posts: Repository<Post>,
    private readonly directory: SpaceDirectory,
    private readonly publisher: ContentPublisher,
  ) {}

  /**
   * Brings the chain in line with the post; never fails the write that called it. `formatChanged`
   * (a title added or removed) starts a new chain, since `format` is fixed at genesis.
   */
  sync(postId: string, formatChanged = false): Promise<void> {
    const previous = this.running.get(postId) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(() => this.rounds(postId, formatChanged))
      .catch((error: unknown) =>
        this.logger.warn(`post ${postId}: content chain not synced: ${String(error)}`),
      );
    this.running.set(postId, next);
    const forget = () => {
      if (this.running.get(postId) === next) this.running.delete(postId);
    };
    void next.then(forget);
    return next;
  }

  private async rounds(postId: string, formatChanged: boolean): Promise<void> {
    let stray: PublishedContent | null = null;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      if (round > 0) {
        if (stray) await this.publisher.retract(stray);
        stray = null;
        await delay(2);
      }
      const post = await this.posts.findOne({ where: { id: postId }, withDeleted: true });
      if (!post) return;
      const previous: PublishedContent | null =
        post.contentId && post.headCid ? { contentId: post.contentId, headCid: post.headCid } : null;
      let next: (PublishedContent & { documentCid: string }) | null = null;
      if (await this.isPublic(post)) {
        const document = postDocument(post);
        const cid = documentCid(document);
        if (round === 0 && previous && post.documentCid === cid) return;
        const restart = previous !== null && formatChanged;
        if (restart) await this.publisher.retract(previous);
        next = { ...(await this.publisher.publish(restart ? null : previous, document)), documentCid: cid };
      } else {
        if (!previous) return;
        await this.publisher.retract(previous);
      }
      const stored = await this.posts
        .createQueryBuilder()
        .update(Post)
        .set({
          contentId: next?.contentId ?? null,
          headCid: next?.headCid ?? null,
          documentCid: next?.documentCid ?? null,
        })
        .where('id = :postId', { postId })
        .andWhere(previous ? 'head_cid = :head' : 'head_cid IS NULL', { head: previous?.headCid })
        .updateEntity(false)
        .execute();
      if (stored.affected === 1) return;
      stray = next;
    }
    throw new Error('the content chain kept moving');
  }

  private async isPublic(post: Post): Promise<boolean> {
    if (post.deletedAt) return false;
    const [topic, space] = await Promise.all([
      this.directory.findTopicById(post.topicId),
      this.directory.findById(post.spaceId),
    ]);
    return topic?.accessKind === 'public' && space?.isPublic === true;
  }
}

/** The public projection of a post as a post/v1 document. */
export function postDocument(post: Post): Record<string, unknown> {
  return {
    $schema: POST_SCHEMA,
    format: post.title ? 'long-post' : 'short-post',
    publishedAt: post.publishedAt.toISOString(),
    ...(post.title ? { title: post.title } : {}),
    body: applyFold(post.body).body,
    credits: [{ did: post.authorDid, role: 'author' }],
  };
}
