import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  ChainGenesis,
  type SignedGenesis,
  type ChainOwner,
  type ChainState,
  type StoredHead,
  ChainOutboxService,
  type PublishedContent,
} from '../../protocol';
import { SpaceDirectoryService } from '../../spaces';
import { ChainNotStored, headColumns, isPublicPlace, postDocument } from '../domain/post-document';
import { Post } from '../entities/post.entity';
import { PostsRepository } from '../repositories/posts.repository';

const POST_CHAIN_OWNER = 'post';

/**
 * The content chain of a public post (protocol CONTENT-MODEL.md `post/v1`, design.md §1): while a
 * post is live in a live `public` topic of a space with a public profile, its public projection
 * (format, publishedAt, title, the above-fold body, the author as first credit) is the chain's
 * current document, signed by the origin identity; when it stops being public (deleted, moved to a
 * non-public topic) the chain gets a delete. `format` is fixed at genesis, so a format change
 * retracts the chain and starts a new one.
 *
 * A new public post starts its chain inside its own transaction (`begin`, then `store`): the chain
 * commits with the post. Every other write enqueues its posts in the chain outbox inside its
 * transaction and settles them after commit, as does a create whose chain the relay refused; the
 * outbox's sweep retries what failed, so the chain follows the row even when the relay or the
 * database failed in between. ContentChainSyncService drives the chain (one sync at a time per
 * post, compare-and-set on the stored head across replicas); this class reads the post and stores
 * its head. Admin access changes reach here through PostVisibilitySubscriber.
 */
@Injectable()
export class PostContentChainService implements ChainOwner, OnModuleInit {
  constructor(
    private readonly posts: PostsRepository,
    private readonly directory: SpaceDirectoryService,
    private readonly outbox: ChainOutboxService,
    private readonly genesis: ChainGenesis,
  ) {}

  onModuleInit(): void {
    this.outbox.register(POST_CHAIN_OWNER, this);
  }

  /** Signs the genesis of a new public post's chain and takes its position onto `post` (before the insert). */
  begin(post: Post): SignedGenesis {
    const genesis = this.genesis.sign(postDocument(post));
    Object.assign(post, headColumns(genesis));
    return genesis;
  }

  /**
   * Stores the chain `begin` signed, on the post's transaction, after the post's insert. When the
   * relay had that very operation already (an identical post in the same millisecond), the chain
   * starts from a new genesis, and the post's row follows it. A relay that refuses it throws
   * ChainNotStored: the transaction is lost, and the create runs again through the outbox.
   */
  async store(manager: EntityManager, post: Post, genesis: SignedGenesis): Promise<void> {
    let stored: SignedGenesis;
    try {
      stored = await this.genesis.store(manager, genesis);
    } catch (error) {
      throw new ChainNotStored(error);
    }
    if (stored.headCid === genesis.headCid) return;
    Object.assign(post, headColumns(stored));
    await this.posts.setChainColumns(post.id, headColumns(stored), manager);
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
    const post = await this.posts.anyById(postId);
    if (!post) return null;
    return {
      head: post.contentId && post.headCid ? { contentId: post.contentId, headCid: post.headCid } : null,
      headDocumentCid: post.documentCid,
      document: (await this.isPublic(post)) ? postDocument(post) : null,
    };
  }

  storeHead(postId: string, expected: PublishedContent | null, next: StoredHead | null): Promise<boolean> {
    return this.posts.storeHead(postId, expected?.headCid ?? null, {
      contentId: next?.contentId ?? null,
      headCid: next?.headCid ?? null,
      documentCid: next?.documentCid ?? null,
    });
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
