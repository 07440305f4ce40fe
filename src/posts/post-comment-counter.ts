import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CommentAdded, CommentRemoved } from '../comments';
import { DomainEvents } from '../infrastructure/events/domain-events.service';
import { Post } from './entities/post.entity';

/** Keeps a post's `commentCount` (live comments) in step, inside the comment write's transaction. */
@Injectable()
export class PostCommentCounter implements OnModuleInit {
  constructor(private readonly events: DomainEvents) {}

  onModuleInit(): void {
    this.events.withinTransaction(CommentAdded, (event, manager) => this.count(manager, event.postId, +1));
    this.events.withinTransaction(CommentRemoved, (event, manager) => this.count(manager, event.postId, -1));
  }

  private async count(manager: EntityManager, postId: string, delta: 1 | -1): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(Post)
      .set({ commentCount: () => (delta > 0 ? 'comment_count + 1' : 'GREATEST(comment_count - 1, 0)') })
      .where('id = :postId', { postId })
      .execute();
  }
}
