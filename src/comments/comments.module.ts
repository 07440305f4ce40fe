import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainEventsModule } from '../infrastructure/events/domain-events.module';
import { LinkPreviewsModule } from '../link-previews';
import { PostsModule } from '../posts';
import { SpacesModule } from '../spaces';
import { UsersModule } from '../users';
import { MediaRecordsModule } from '../media';
import { CommentsRepository } from './comments.repository';
import { CommentUpvotesController } from './controllers/comment-upvotes.controller';
import { CommentsController } from './controllers/comments.controller';
import { PostCommentsController } from './controllers/post-comments.controller';
import { CommentsPresenter } from './services/comments.presenter';
import { CommentsService } from './services/comments.service';
import { Comment } from './entities/comment.entity';
import { CommentUpvote } from './entities/comment-upvote.entity';
import { PaginationModule } from '../common/pagination/pagination.module';

/** Comments on posts and their upvotes (api-spec.md "Comment", the comment routes of "Writes"). */
@Module({
  imports: [
    DomainEventsModule,
    PaginationModule,
    PostsModule,
    SpacesModule,
    UsersModule,
    MediaRecordsModule,
    LinkPreviewsModule,
    TypeOrmModule.forFeature([Comment, CommentUpvote]),
  ],
  controllers: [PostCommentsController, CommentsController, CommentUpvotesController],
  providers: [CommentsService, CommentsPresenter, CommentsRepository],
})
export class CommentsModule {}
