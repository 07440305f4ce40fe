import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { SpaceCounters } from '../spaces/space-counters';
import { Post } from './entities/post.entity';

/**
 * Registers the count behind a space's `privatePostCountSummary` (design.md §8): its live posts of
 * live topics whose access is not `public` (the posts the public projection does not show).
 */
@Injectable()
export class PrivatePostCount implements OnModuleInit {
  constructor(
    private readonly counters: SpaceCounters,
    @InjectRepository(Post) private readonly posts: Repository<Post>,
  ) {}

  onModuleInit(): void {
    this.counters.register('privatePostCountSummary', (spaceId) => this.count(spaceId));
  }

  count(spaceId: string): Promise<number> {
    return (
      this.posts
        .createQueryBuilder('post')
        // The spaces module's published view of live topics (its table stays its own).
        .innerJoin('live_space_topics', 'topic', 'topic.id = post.topic_id')
        .where('post.spaceId = :spaceId', { spaceId })
        .andWhere("topic.access_kind <> 'public'")
        .getCount()
    );
  }
}
