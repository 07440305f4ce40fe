import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { SpaceVisibility, VisibilityChange } from '../spaces/space-visibility';
import { Post } from './entities/post.entity';
import { PostContentChain } from './post-content-chain';

/**
 * Keeps post content chains in step with access changes made by space admins: a topic or space
 * that stops being public retracts its posts' public documents (a privacy rule, not only
 * freshness); one that becomes public publishes them. Only live posts, plus deleted ones that
 * still hold a chain, are visited; `sync` is a no-op for a post already in step.
 */
@Injectable()
export class PostVisibilityFollower implements OnModuleInit {
  constructor(
    private readonly visibility: SpaceVisibility,
    private readonly chains: PostContentChain,
    @InjectRepository(Post) private readonly posts: Repository<Post>,
  ) {}

  onModuleInit(): void {
    this.visibility.follow((change) => this.follow(change));
  }

  async follow(change: VisibilityChange): Promise<void> {
    const query = this.posts
      .createQueryBuilder('post')
      .withDeleted()
      .select('post.id', 'id')
      .where('post.spaceId = :spaceId', { spaceId: change.spaceId })
      .andWhere('(post.deletedAt IS NULL OR post.contentId IS NOT NULL)');
    if (change.topicId) query.andWhere('post.topicId = :topicId', { topicId: change.topicId });
    const rows: { id: string }[] = await query.getRawMany();
    // One at a time: each sync signs and ingests an operation; admin changes are rare.
    for (const { id } of rows) await this.chains.sync(id);
  }
}
