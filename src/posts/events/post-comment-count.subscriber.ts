import { Injectable, OnModuleInit } from '@nestjs/common';
import { CommentAdded, CommentRemoved } from '../../comments';
import { DomainEvents } from '../../infrastructure/events/domain-events.service';
import { PostsRepository } from '../repositories/posts.repository';

/** Keeps a post's `commentCount` (live comments) in step, inside the comment write's transaction. */
@Injectable()
export class PostCommentCountSubscriber implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly posts: PostsRepository,
  ) {}

  onModuleInit(): void {
    this.events.withinTransaction(CommentAdded, (event, manager) =>
      this.posts.countComment(event.postId, +1, manager),
    );
    this.events.withinTransaction(CommentRemoved, (event, manager) =>
      this.posts.countComment(event.postId, -1, manager),
    );
  }
}
