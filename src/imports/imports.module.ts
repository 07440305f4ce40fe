import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { JobsModule } from '../infrastructure/jobs/jobs.module';
import { MediaRecordsModule } from '../media';
import { StoreModule } from '../store';
import { PostsModule } from '../posts';
import { RelayModule } from '../protocol';
import { SpacesModule } from '../spaces';
import { SpaceImportsController } from './controllers/space-imports.controller';
import { SpaceImport } from './entities/space-import.entity';
import { ImportsSubscriber } from './events/imports.subscriber';
import { ImportsRepository } from './imports.repository';
import { SpaceImportAnnouncementService } from './services/space-import-announcement.service';
import { SpaceImportsService } from './services/space-imports.service';
import { ImportErasureService } from './services/import-erasure.service';

/**
 * Space imports (issue 35 item 5): owns `imports`; reads a space export's archive (the exports
 * module's reader and schemas) and writes the new space only through the spaces, posts, media, store
 * and events modules' services (docs/decisions/0220, 0221, 0231, 0232), after verifying its
 * `chains/` with the protocol's rules when it carries them (0235), then ingesting those chains into
 * the relay as they are (0236). Only account-erasure imports it (ImportErasureService).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([SpaceImport]),
    JobsModule,
    SpacesModule,
    PostsModule,
    MediaRecordsModule,
    StoreModule,
    RelayModule,
  ],
  controllers: [SpaceImportsController],
  providers: [
    SpaceImportsService,
    SpaceImportAnnouncementService,
    ImportsRepository,
    ImportsSubscriber,
    ImportErasureService,
  ],
  exports: [ImportErasureService],
})
export class ImportsModule {}
