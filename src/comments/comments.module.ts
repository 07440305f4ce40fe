import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PostsModule } from '../posts/posts.module';
import { SpacesModule } from '../spaces/spaces.module';
import { CommentAuthors } from './comment-authors';
import { CommentsController } from './comments.controller';
import { CommentsService } from './comments.service';
import { Comment } from './entities/comment.entity';
import { CommentUpvote } from './entities/comment-upvote.entity';

/** Comments on posts and their upvotes (api-spec.md "Comment", the comment routes of "Writes"). */
@Module({
  imports: [PostsModule, SpacesModule, TypeOrmModule.forFeature([Comment, CommentUpvote])],
  controllers: [CommentsController],
  providers: [CommentsService, CommentAuthors],
})
export class CommentsModule {}
