import { Module } from '@nestjs/common';
import { DomainEventsModule } from '../infrastructure/events/domain-events.module';
import { PostCommentCounter } from './post-comment-counter';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MembershipsModule } from '../memberships';
import { SpacesModule } from '../spaces';
import { UsersModule } from '../users';
import { MediaRecordsModule } from '../media';
import { Post } from './entities/post.entity';
import { PostUpvote } from './entities/post-upvote.entity';
import { PostTopicCount } from './entities/post-topic-count.entity';
import { PostCounts } from './post-counts';
import { FeedController } from './controllers/feed.controller';
import { EntityLinkResolver } from './entity-links';
import { FeedService } from './feed.service';
import { PostAccess } from './post-access.service';
import { PostPresenter } from './post-presenter';
import { PostReadability } from './post-readability';
import { PostContentChain } from './post-content-chain';
import { PostVisibilityFollower } from './post-visibility-follower';
import { PostUpvotesService } from './post-upvotes.service';
import { PrivatePostCount } from './private-post-count';
import { PostsController } from './controllers/posts.controller';
import { PostPinsController } from './controllers/post-pins.controller';
import { PostPinsService } from './post-pins.service';
import { PostsService } from './posts.service';
import { PaginationModule } from '../common/pagination/pagination.module';
import { PublishingModule, RelayModule } from '../protocol';

/**
 * Posts of spaces: the optional-auth reads (listing, single post union), the feed, the post writes
 * and upvotes (api-spec.md "Optional-auth reads", "Credential-gated reads", "Writes").
 * `PostAccess` is exported: comments read and write through it; `PostReadability` tells other
 * modules which of many posts a member reads now (notifications' post titles).
 */
@Module({
  imports: [
    DomainEventsModule,
    PaginationModule,
    PublishingModule,
    RelayModule,
    SpacesModule,
    MembershipsModule,
    UsersModule,
    MediaRecordsModule,
    TypeOrmModule.forFeature([Post, PostUpvote, PostTopicCount]),
  ],
  controllers: [PostsController, PostPinsController, FeedController],
  providers: [
    PostCommentCounter,
    PostCounts,
    PrivatePostCount,
    PostContentChain,
    PostVisibilityFollower,
    PostAccess,
    PostPresenter,
    PostReadability,
    EntityLinkResolver,
    PostsService,
    PostUpvotesService,
    PostPinsService,
    FeedService,
  ],
  exports: [PostAccess, PostPresenter, PostReadability],
})
export class PostsModule {}
