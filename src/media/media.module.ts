import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SpacesModule } from '../spaces';
import { LegacyMediaController } from './controllers/legacy-media.controller';
import { SpaceMediaController } from './controllers/space-media.controller';
import { UploadsController } from './controllers/uploads.controller';
import { Media } from './entities/media.entity';
import { MediaSpaceUsage } from './entities/media-space-usage.entity';
import { LegacyMediaService } from './legacy-media.service';
import { MediaLimits } from './media-limits';
import { MediaRows } from './media-rows';
import { MediaUploadCount } from './media-upload-count';
import { MediaRecordsModule } from './records/media-records.module';
import { SpaceMediaService } from './space-media.service';
import { mediaStorageProvider } from './storage/media-storage.provider';
import { UploadService } from './upload/upload.service';
import { UploadQuota } from './upload-quota';
import { CdnController } from './controllers/cdn.controller';
import { MediaFilesController, MediaPostersController } from './controllers/media-files.controller';
import { JobsModule } from '../infrastructure/jobs/jobs.module';
import { MetricsModule } from '../infrastructure/metrics/metrics.module';
import { MediaProcessing } from './processing/media-processing';
import { ImageVariants } from './images/image-variants';
import { CdnService } from './serving/cdn.service';
import { MediaFilesService } from './serving/media-files.service';

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
    mediaStorageProvider,
    MediaRows,
    MediaLimits,
    SpaceMediaService,
    LegacyMediaService,
    UploadService,
    ImageVariants,
    CdnService,
    MediaFilesService,
    MediaProcessing,
    MediaUploadCount,
    UploadQuota,
  ],
})
export class MediaModule {}
