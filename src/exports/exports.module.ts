import { Module } from '@nestjs/common';
import { CommentRecordsModule } from '../comments';
import { EventRecordsModule } from '../events';
import { PaginationModule } from '../common/pagination/pagination.module';
import { JobsModule } from '../infrastructure/jobs/jobs.module';
import { MediaRecordsModule } from '../media';
import { NotificationsModule } from '../notifications';
import { PostsModule } from '../posts';
import { RelayModule } from '../protocol';
import { SpacesModule } from '../spaces';
import { StoreModule } from '../store';
import { UsersModule } from '../users';
import { ExportsController } from './controllers/exports.controller';
import { SpaceExportsController } from './controllers/space-exports.controller';
import { ExportsSubscriber } from './events/exports.subscriber';
import { ExportsRepository } from './exports.repository';
import { ExportErasureService } from './services/export-erasure.service';
import { ExportArchiveService } from './services/export-archive.service';
import { ExportUrlSignerService } from './services/export-url-signer.service';
import { ExportsService } from './services/exports.service';

/**
 * Personal and space exports (issue 35 items 3 and 4): owns `exports`; builds each person's or
 * space's archive from the owning
 * modules' exported export services (users, posts, comments, spaces, notifications, media, the
 * relay), stores it in the media store and serves it by signed URL until it expires
 * (docs/decisions/0210-personal-export-archive-layout.md to 0213). Only account-erasure imports it,
 * for its part of an erasure (0214).
 */
@Module({
  imports: [
    PaginationModule,
    JobsModule,
    UsersModule,
    PostsModule,
    CommentRecordsModule,
    SpacesModule,
    NotificationsModule,
    MediaRecordsModule,
    RelayModule,
    EventRecordsModule,
    StoreModule,
  ],
  controllers: [ExportsController, SpaceExportsController],
  providers: [
    ExportsService,
    ExportsRepository,
    ExportArchiveService,
    ExportUrlSignerService,
    ExportsSubscriber,
    ExportErasureService,
  ],
  exports: [ExportsService, ExportErasureService],
})
export class ExportsModule {}
