import { Module } from '@nestjs/common';
import { CommentErasureModule } from '../comments';
import { ExportsModule } from '../exports';
import { ImportsModule } from '../imports';
import { IdempotencyModule } from '../infrastructure/idempotency/idempotency.module';
import { JobsModule } from '../infrastructure/jobs/jobs.module';
import { KeyProofModule } from '../key-proof';
import { LegacySpacesModule } from '../legacy-spaces';
import { MediaRecordsModule } from '../media';
import { MembershipsModule } from '../memberships';
import { NotificationsModule } from '../notifications';
import { PostsModule } from '../posts';
import { SpacesModule } from '../spaces';
import { UsersModule } from '../users';
import { AccountErasureSubscriber } from './events/account-erasure.subscriber';
import { AccountErasuresService } from './services/account-erasures.service';

/**
 * Carries out due account erasures (issue 35 item 2): owns no table; it drives the owning modules'
 * exported erasure services in one transaction per person. Nothing imports it, so it may import
 * them all without a cycle (docs/decisions/0197-one-transaction-per-erasure-driven-by-a-sweep.md).
 */
@Module({
  imports: [
    JobsModule,
    IdempotencyModule,
    UsersModule,
    SpacesModule,
    MembershipsModule,
    LegacySpacesModule,
    PostsModule,
    CommentErasureModule,
    NotificationsModule,
    KeyProofModule,
    MediaRecordsModule,
    ExportsModule,
    ImportsModule,
  ],
  providers: [AccountErasuresService, AccountErasureSubscriber],
  exports: [AccountErasuresService],
})
export class AccountErasureModule {}
