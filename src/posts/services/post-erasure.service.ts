import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { PostsRepository } from '../repositories/posts.repository';
import { PostContentChainService } from './post-content-chain.service';
import { PostCountsService } from './post-counts.service';
import { ErasedRows } from '../../common/erasure/erased-rows';

/**
 * The posts module's part of an account's erasure, inside the erasure's transaction
 * (docs/decisions/0196-what-an-erasure-removes-and-keeps.md): the person's posts are deleted
 * (the constant 404, as a deleted post) with title, body, card text, slug and attachments gone,
 * the live ones taken out of the counts and their content chains retracted through the outbox;
 * their upvotes go, each post's counter with them. Idempotent: a second run finds nothing live.
 */
@Injectable()
export class PostErasureService {
  constructor(
    private readonly posts: PostsRepository,
    private readonly counts: PostCountsService,
    private readonly chain: PostContentChainService,
  ) {}

  /**
   * Erases what `did` wrote and voted: the ids of the chained posts to settle after commit, and the
   * rows changed by table.
   */
  async erase(
    manager: EntityManager,
    did: string,
    at: Date,
  ): Promise<{ chained: string[]; erased: ErasedRows }> {
    const live = await this.posts.erasableLivePosts(did, manager);
    for (const post of live) {
      await this.counts.add(
        manager,
        { spaceId: post.space_id, topicId: post.topic_id, title: post.title },
        -1,
      );
    }
    const erased = await this.posts.erasePostsOf(did, at, manager);
    const chained = live.filter((post) => post.content_id !== null).map((post) => post.id);
    if (chained.length > 0) await this.chain.enqueue(manager, chained);
    return { chained, erased };
  }

  /** After commit: publishes the retractions `erase` enqueued (the outbox's sweep retries). */
  settle(postIds: string[]): Promise<void> {
    return postIds.length > 0 ? this.chain.settle(postIds) : Promise.resolve();
  }
}
