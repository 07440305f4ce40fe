import { DynamicModule, Module } from '@nestjs/common';
import { ApiDocsModule } from './api-docs/api-docs.module';
import { CommonModule } from './common/common.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './infrastructure/database/database.module';
import { LegacySpacesModule } from './legacy-spaces/legacy-spaces.module';
import { KeyProofModule } from './key-proof/key-proof.module';
import { HealthModule } from './infrastructure/health/health.module';
import { LoggingModule } from './infrastructure/logging/logging.module';
import { MetricsModule } from './infrastructure/metrics/metrics.module';
import { AuthModule } from './protocol/auth/auth.module';
import { RelayModule } from './protocol/relay/relay.module';
import { RateLimitModule } from './infrastructure/rate-limit/rate-limit.module';
import { RedisModule } from './infrastructure/redis/redis.module';
import { NotificationsModule } from './notifications/notifications.module';
import { SpacesModule } from './spaces/spaces.module';
import { MembershipsModule } from './memberships/memberships.module';
import { PostsModule } from './posts/posts.module';
import { CommentsModule } from './comments/comments.module';
import { UsersModule } from './users/users.module';
import { CredentialsModule } from './protocol/credentials/credentials.module';
import { ClockModule } from './common/clock/clock.module';
import { EventsModule } from './events/events.module';
import { StoreModule } from './store/store.module';
import { MediaModule } from './media/media.module';
import { LinkPreviewsModule } from './link-previews/link-previews.module';
import { SearchModule } from './search/search.module';
import { AccountErasureModule } from './account-erasure/account-erasure.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { ExportsModule } from './exports/exports.module';
import { ImportsModule } from './imports/imports.module';

@Module({})
export class AppModule {
  /** The whole service for one validated configuration (main.ts and the e2e tests both boot this). */
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggingModule,
        MetricsModule,
        RedisModule,
        RateLimitModule,
        ClockModule,
        CommonModule,
        DatabaseModule,
        HealthModule,
        ApiDocsModule,
        AuthModule,
        RelayModule,
        NotificationsModule,
        SpacesModule,
        LegacySpacesModule,
        MembershipsModule,
        PostsModule,
        CommentsModule,
        EventsModule,
        UsersModule,
        AccountErasureModule,
        CredentialsModule,
        KeyProofModule,
        StoreModule,
        MediaModule,
        LinkPreviewsModule,
        SearchModule,
        WebhooksModule,
        ExportsModule,
        ImportsModule,
      ],
    };
  }
}
