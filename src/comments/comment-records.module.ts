import { CommentExportService } from './services/comment-export.service';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MediaRecordsModule } from '../media';
import { UsersModule } from '../users';
import { CommentsRepository } from './comments.repository';
import { Comment } from './entities/comment.entity';
import { CommentUpvote } from './entities/comment-upvote.entity';
import { CommentItemsService } from './services/comment-items.service';
import { CommentsPresenter } from './services/comments.presenter';

/**
 * The part of the comments module other modules import (`CommentItemsService`): it imports no
 * module that imports posts, so the posts module can keep importing comments' events while
 * `CommentsModule` imports posts (docs/decisions/0142-a-records-module-breaks-a-module-cycle.md).
 * It also provides `CommentsModule` the repository and the presenter.
 */
@Module({
  imports: [UsersModule, MediaRecordsModule, TypeOrmModule.forFeature([Comment, CommentUpvote])],
  providers: [CommentsRepository, CommentsPresenter, CommentItemsService, CommentExportService],
  exports: [CommentsRepository, CommentsPresenter, CommentItemsService, CommentExportService],
})
export class CommentRecordsModule {}
