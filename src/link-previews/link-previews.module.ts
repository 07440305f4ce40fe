import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { JobsModule } from '../infrastructure/jobs/jobs.module';
import { MetricsModule } from '../infrastructure/metrics/metrics.module';
import { OutboundModule } from '../infrastructure/outbound/outbound.module';
import { MediaRecordsModule } from '../media';
import { AppConfig } from '../config/app-config';
import { RecentLinkPreviews } from './domain/recent-link-previews';
import { LinkPreviewsSubscriber } from './events/link-previews.subscriber';
import { LinkPreviewResolutionService } from './services/link-preview-resolution.service';
import { LinkPreview } from './entities/link-preview.entity';
import { LinkPreviewsRepository } from './link-previews.repository';
import { LinkPreviewsService } from './services/link-previews.service';

/**
 * The link previews module: owns `link_previews`, one record per normalized URL of what its page
 * says (title, description, site name, image and favicon as media of ours), resolved in the
 * background (docs/decisions/0150-link-previews-resolved-in-the-background.md). Offers
 * `LinkPreviewsService`: the views of many URLs in one statement, and `resolveSoon`. No routes.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([LinkPreview]),
    MediaRecordsModule,
    JobsModule,
    MetricsModule,
    OutboundModule,
  ],
  providers: [
    LinkPreviewsService,
    LinkPreviewsRepository,
    LinkPreviewResolutionService,
    LinkPreviewsSubscriber,
    {
      provide: RecentLinkPreviews,
      useFactory: (config: AppConfig) => new RecentLinkPreviews(config.LINK_PREVIEW_CACHE_SECONDS * 1000),
      inject: [AppConfig],
    },
  ],
  exports: [LinkPreviewsService],
})
export class LinkPreviewsModule {}
