import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DomainEvents } from '../../infrastructure/events/domain-events.service';
import { CommentsRepository } from '../comments.repository';
import { CommentRemoved } from '../events/comment.events';
import { ErasedRows } from '../../common/erasure/erased-rows';

/**
 * The comments module's part of an account's erasure, inside the erasure's transaction
 * (docs/decisions/0196-what-an-erasure-removes-and-keeps.md): the person's comments become
 * tombstones, as a deletion leaves them (threads keep their replies), with body and attachments
 * gone; each live one counted out as a deletion counts it (`CommentRemoved`, the parent's
 * `replyCount`); their upvotes go, each counter with them. Idempotent: a second run finds none live.
 */
@Injectable()
export class CommentErasureService {
  constructor(
    private readonly comments: CommentsRepository,
    private readonly events: DomainEvents,
  ) {}

  async erase(manager: EntityManager, did: string, at: Date): Promise<ErasedRows> {
    const { tombstoned, erased } = await this.comments.eraseAllOf(did, at, manager);
    for (const comment of tombstoned) {
      if (comment.parent_comment_id) await this.comments.uncountReply(comment.parent_comment_id, manager);
      await this.events.emit(manager, new CommentRemoved(comment.space_id, comment.post_id, comment.id));
    }
    return erased;
  }
}
