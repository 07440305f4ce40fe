import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PaginationModule } from '../common/pagination/pagination.module';
import { DomainEventsModule } from '../infrastructure/events/domain-events.module';
import { MediaRecordsModule } from '../media';
import { EventRecordsModule } from '../events';
import { LinkPreviewsModule } from '../link-previews';
import { MembershipsModule } from '../memberships';
import { PublishingModule, RelayModule } from '../protocol';
import { SpacesModule } from '../spaces';
import { UsersModule } from '../users';
import { FeedController } from './controllers/feed.controller';
import { PostPinsController } from './controllers/post-pins.controller';
import { PostUpvotesController } from './controllers/post-upvotes.controller';
import { PostsController } from './controllers/posts.controller';
import { Post } from './entities/post.entity';
import { PostTopicCount } from './entities/post-topic-count.entity';
import { PostUpvote } from './entities/post-upvote.entity';
import { PostCommentCountSubscriber } from './events/post-comment-count.subscriber';
import { PostVisibilitySubscriber } from './events/post-visibility.subscriber';
import { PostCardsRepository } from './repositories/post-cards.repository';
import { PostCountsRepository } from './repositories/post-counts.repository';
import { PostReadersRepository } from './repositories/post-readers.repository';
import { PostsRepository } from './repositories/posts.repository';
import { EntityLinksService } from './services/entity-links.service';
import { FeedService } from './services/feed.service';
import { PostAccessService } from './services/post-access.service';
import { PostErasureService } from './services/post-erasure.service';
import { PostExportService } from './services/post-export.service';
import { PostCardsService } from './services/post-cards.service';
import { PostContentChainService } from './services/post-content-chain.service';
import { PostCountsService } from './services/post-counts.service';
import { PostPinsService } from './services/post-pins.service';
import { PostReadabilityService } from './services/post-readability.service';
import { PostUpvotesService } from './services/post-upvotes.service';
import { PostPresenter } from './services/post.presenter';
import { PostsService } from './services/posts.service';

/**
 * Posts of spaces: the optional-auth reads (listing, single post union), the feed, the post writes
 * and upvotes (api-spec.md "Optional-auth reads", "Credential-gated reads", "Writes").
 * `PostAccessService` is exported: comments read and write through it; `PostReadabilityService` and
 * `PostCardsService` tell other modules which of many posts and topics a reader reads now and
 * show those posts as cards (notifications' post titles and recipients).
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
    EventRecordsModule,
    LinkPreviewsModule,
    TypeOrmModule.forFeature([Post, PostUpvote, PostTopicCount]),
  ],
  controllers: [PostsController, PostUpvotesController, PostPinsController, FeedController],
  providers: [
    PostsRepository,
    PostCardsRepository,
    PostCountsRepository,
    PostReadersRepository,
    PostCommentCountSubscriber,
    PostCountsService,
    PostContentChainService,
    PostVisibilitySubscriber,
    PostAccessService,
    PostPresenter,
    PostReadabilityService,
    PostCardsService,
    PostExportService,
    PostErasureService,
    EntityLinksService,
    PostsService,
    PostUpvotesService,
    PostPinsService,
    FeedService,
  ],
  exports: [
    PostAccessService,
    PostPresenter,
    PostReadabilityService,
    PostCardsService,
    PostErasureService,
    PostExportService,
    PostsService,
  ],
})
export class PostsModule {}
