import { Module } from '@nestjs/common';
import { DomainEventsModule } from '../infrastructure/events/domain-events.module';
import { CommentsRepository } from './comments.repository';
import { CommentErasureService } from './services/comment-erasure.service';

/**
 * The comments module's part of an account's erasure, as a second Nest module: the comments
 * module imports posts, whose subscriber imports comments' events, so exporting `CommentsModule`
 * through index.ts would be a cycle
 * (docs/decisions/0142-a-records-module-breaks-a-module-cycle.md).
 */
@Module({
  imports: [DomainEventsModule],
  providers: [CommentsRepository, CommentErasureService],
  exports: [CommentErasureService],
})
export class CommentErasureModule {}
