import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Media } from './entities/media.entity';
import { MediaSpaceUsage } from './entities/media-space-usage.entity';
import { MediaPresenter } from './services/media.presenter';
import { MediaUrlSignerService } from './services/media-url-signer.service';
import { MediaUrlsService } from './services/media-urls.service';
import { MediaLookupService } from './services/media-lookup.service';
import { MediaRepository } from './media.repository';
import { AvProbeService } from './services/processing/av-probe.service';
import { ImportArchivesService } from './services/import-archives.service';
import { MediaImportsService } from './services/media-imports.service';
import { MediaExportService } from './services/media-export.service';
import { mediaStorageProvider } from './services/storage/media-storage.provider';
import { JobsModule } from '../infrastructure/jobs/jobs.module';
import { MediaErasureService } from './services/media-erasure.service';
import { MediaErasureSubscriber } from './events/media-erasure.subscriber';

/**
 * The part of the media module other modules import (`MediaLookupService`): it depends on nothing but
 * the media tables and configuration, so spaces, posts, comments, pages, store and events use it
 * while the media routes, which resolve spaces (`SpacesModule` imports this module), sit in
 * `MediaModule`: one Nest module would import spaces and be imported by it, a cycle
 * (docs/decisions/0142-a-records-module-breaks-a-module-cycle.md). It also provides `MediaModule`
 * the repository, the URLs and their signer (one key per process), and the store (MediaStorage).
 * `MediaImportsService` keeps images other modules fetched (link previews) as public media and a
 * space import's files (with `AvProbeService`, the one ffprobe/ffmpeg prober the processing job
 * shares); `ImportArchivesService` keeps a space import's uploaded archive in the store;
 * `MediaErasureService` erases a person's media in an account erasure.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Media, MediaSpaceUsage]), JobsModule],
  providers: [
    mediaStorageProvider,
    MediaRepository,
    MediaUrlSignerService,
    MediaUrlsService,
    MediaPresenter,
    MediaLookupService,
    MediaImportsService,
    ImportArchivesService,
    AvProbeService,
    MediaErasureService,
    MediaErasureSubscriber,
    MediaExportService,
  ],
  exports: [
    mediaStorageProvider,
    MediaRepository,
    MediaUrlSignerService,
    MediaUrlsService,
    MediaPresenter,
    MediaLookupService,
    MediaImportsService,
    ImportArchivesService,
    AvProbeService,
    MediaErasureService,
    MediaExportService,
  ],
})
export class MediaRecordsModule {}
