import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import type { ChainOwner, ChainState, StoredHead } from '../protocol/publishing/chain-owner';
import { ChainOutbox } from '../protocol/publishing/chain-outbox';
import type { PublishedContent } from '../protocol/publishing/content-publisher';
import { SpaceDirectory } from '../spaces/space-directory';
import { Post } from './entities/post.entity';
import type { SpaceView, TopicView } from '../spaces/space-views';
import { applyFold } from './rendering/post-text';

export const POST_SCHEMA = 'https://schemas.dfos.com/post/v1';
const POST_CHAIN_OWNER = 'post';

/**
 * The content chain of a public post (protocol CONTENT-MODEL.md `post/v1`, design.md §1): while a
 * post is live in a live `public` topic of a space with a public profile, its public projection
 * (format, publishedAt, title, the above-fold body, the author as first credit) is the chain's
 * current document, signed by the origin identity; when it stops being public (deleted, moved to a
 * non-public topic) the chain gets a delete. `format` is fixed at genesis, so a format change
 * retracts the chain and starts a new one.
 *
 * A write enqueues its posts in the chain outbox inside its transaction and settles them after
 * commit; the outbox's sweep retries what failed, so the chain follows the row even when the relay
 * or the database failed in between. ContentChainSync drives the chain (one sync at a time per
 * post, compare-and-set on the stored head across replicas); this class reads the post and stores
 * its head. Admin access changes reach here through PostVisibilityFollower.
 */
@Injectable()
export class PostContentChain implements ChainOwner, OnModuleInit {
  constructor(
    @InjectRepository(Post) private readonly posts: Repository<Post>,
    private readonly directory: SpaceDirectory,
    private readonly outbox: ChainOutbox,
  ) {}

  onModuleInit(): void {
    this.outbox.register(POST_CHAIN_OWNER, this);
  }

  /**
   * Records inside the write's transaction that the posts' chains must follow them. `formatChanged`
   * (a title added or removed) starts a new chain, since `format` is fixed at genesis.
   */
  enqueue(manager: EntityManager, postIds: string[], formatChanged = false): Promise<void> {
    return this.outbox.enqueue(manager, POST_CHAIN_OWNER, postIds, { startNewChain: formatChanged });
  }

  /** After commit: publishes what `enqueue` recorded; never fails the write (the sweep retries). */
  settle(postIds: string[]): Promise<void> {
    return this.outbox.settle(POST_CHAIN_OWNER, postIds);
  }

  chainName(postId: string): string {
    return `the content chain of post ${postId}`;
  }

  async state(postId: string): Promise<ChainState | null> {
    const post = await this.posts.findOne({ where: { id: postId }, withDeleted: true });
    if (!post) return null;
    return {
      head: post.contentId && post.headCid ? { contentId: post.contentId, headCid: post.headCid } : null,
      headDocumentCid: post.documentCid,
      document: (await this.isPublic(post)) ? postDocument(post) : null,
    };
  }

  async storeHead(
    postId: string,
    expected: PublishedContent | null,
    next: StoredHead | null,
  ): Promise<boolean> {
    const stored = await this.posts
      .createQueryBuilder()
      .update(Post)
      .set({
        contentId: next?.contentId ?? null,
        headCid: next?.headCid ?? null,
        documentCid: next?.documentCid ?? null,
      })
      .where('id = :postId', { postId })
      .andWhere(expected ? 'head_cid = :head' : 'head_cid IS NULL', { head: expected?.headCid })
      .updateEntity(false)
      .execute();
    return stored.affected === 1;
  }

  private async isPublic(post: Post): Promise<boolean> {
    if (post.deletedAt) return false;
    const [topic, space] = await Promise.all([
      this.directory.findTopicById(post.topicId),
      this.directory.findById(post.spaceId),
    ]);
    return topic !== null && space !== null && isPublicPlace(space, topic);
  }
}

/** Whether a live post in this topic of this space is public (has a content chain). */
export function isPublicPlace(
  space: Pick<SpaceView, 'isPublic'>,
  topic: Pick<TopicView, 'accessKind'>,
): boolean {
  return space.isPublic && topic.accessKind === 'public';
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
