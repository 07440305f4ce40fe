import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SpacesModule } from '../spaces';
import { LegacyMediaController } from './controllers/legacy-media.controller';
import { SpaceMediaController } from './controllers/space-media.controller';
import { UploadsController } from './controllers/uploads.controller';
import { Media } from './entities/media.entity';
import { MediaSpaceUsage } from './entities/media-space-usage.entity';
import { LegacyMediaService } from './services/legacy-media.service';
import { MediaLifecycleService } from './services/media-lifecycle.service';
import { MediaUploadCountService } from './services/media-upload-count.service';
import { MediaRecordsModule } from './media-records.module';
import { SpaceMediaService } from './services/space-media.service';
import { UploadService } from './services/upload.service';
import { UploadQuotaService } from './services/upload-quota.service';
import { CdnController } from './controllers/cdn.controller';
import { MediaFilesController } from './controllers/media-files.controller';
import { MediaPostersController } from './controllers/media-posters.controller';
import { JobsModule } from '../infrastructure/jobs/jobs.module';
import { MetricsModule } from '../infrastructure/metrics/metrics.module';
import { MediaProcessingService } from './services/processing/media-processing.service';
import { ImageVariantsService } from './services/images/image-variants.service';
import { CdnService } from './services/cdn.service';
import { MediaFilesService } from './services/media-files.service';
import { MediaJobsSubscriber } from './events/media-jobs.subscriber';

/**
 * Media (design.md §11): the v1 and legacy upload routes, the signed upload URL, the media table,
 * the bytes in `MediaStorage` (local disk, or an S3-compatible bucket), image probing and
 * transforms, audio and video processing as jobs (ffprobe, ffmpeg), and serving: images on the
 * public CDN route, other kinds (and their posters) by signed URL.
 */
@Module({
  imports: [
    SpacesModule,
    JobsModule,
    MetricsModule,
    MediaRecordsModule,
    TypeOrmModule.forFeature([Media, MediaSpaceUsage]),
  ],
  controllers: [
    SpaceMediaController,
    LegacyMediaController,
    UploadsController,
    CdnController,
    MediaFilesController,
    MediaPostersController,
  ],
  providers: [
    MediaLifecycleService,
    SpaceMediaService,
    LegacyMediaService,
    UploadService,
    ImageVariantsService,
    CdnService,
    MediaFilesService,
    MediaProcessingService,
    MediaJobsSubscriber,
    MediaUploadCountService,
    UploadQuotaService,
  ],
})
export class MediaModule {}
