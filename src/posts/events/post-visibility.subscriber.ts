import { Injectable, OnModuleInit } from '@nestjs/common';
import { DomainEvents } from '../../infrastructure/events/domain-events.service';
import { SpaceVisibilityChanged } from '../../spaces';
import { PostsRepository } from '../repositories/posts.repository';
import { PostContentChainService } from '../services/post-content-chain.service';

/**
 * Keeps post content chains in step with access changes made by space admins: a topic or space
 * that stops being public retracts its posts' public documents (a privacy rule, not only
 * freshness); one that becomes public publishes them. The posts are enqueued in the chain outbox
 * inside the admin write's transaction and published after commit, before the admin write answers;
 * what fails is retried by the outbox's sweep. Only live posts, plus deleted ones that still hold a
 * chain, are visited.
 */
@Injectable()
export class PostVisibilitySubscriber implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly chains: PostContentChainService,
    private readonly posts: PostsRepository,
  ) {}

  onModuleInit(): void {
    this.events.withinTransaction(SpaceVisibilityChanged, async (change, manager) =>
      this.chains.enqueue(manager, await this.posts.chained(change.spaceId, change.topicId ?? null, manager)),
    );
    this.events.afterCommit(SpaceVisibilityChanged, async (change) =>
      this.chains.settle(await this.posts.chained(change.spaceId, change.topicId ?? null)),
    );
  }
}
