import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { DomainEvents } from '../infrastructure/events/domain-events.service';
import { SpaceVisibilityChanged } from '../spaces';
import { Post } from './entities/post.entity';
import { PostContentChain } from './post-content-chain';

/**
 * Keeps post content chains in step with access changes made by space admins: a topic or space
 * that stops being public retracts its posts' public documents (a privacy rule, not only
 * freshness); one that becomes public publishes them. The posts are enqueued in the chain outbox
 * inside the admin write's transaction and published after commit, before the admin write answers;
 * what fails is retried by the outbox's sweep. Only live posts, plus deleted ones that still hold a
 * chain, are visited.
 */
@Injectable()
export class PostVisibilityFollower implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly chains: PostContentChain,
    @InjectRepository(Post) private readonly posts: Repository<Post>,
  ) {}

  onModuleInit(): void {
    this.events.withinTransaction(SpaceVisibilityChanged, async (change, manager) =>
      this.chains.enqueue(manager, await this.affected(change, manager)),
    );
    this.events.afterCommit(SpaceVisibilityChanged, async (change) =>
      this.chains.settle(await this.affected(change)),
    );
  }

  private async affected(change: SpaceVisibilityChanged, manager?: EntityManager): Promise<string[]> {
    const query = (manager?.getRepository(Post) ?? this.posts)
      .createQueryBuilder('post')
      .withDeleted()
      .select('post.id', 'id')
      .where('post.spaceId = :spaceId', { spaceId: change.spaceId })
      .andWhere('(post.deletedAt IS NULL OR post.contentId IS NOT NULL)');
    if (change.topicId) query.andWhere('post.topicId = :topicId', { topicId: change.topicId });
    const rows: { id: string }[] = await query.getRawMany();
    return rows.map(({ id }) => id);
  }
}
