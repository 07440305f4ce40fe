import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Media } from './entities/media.entity';
import { MediaSpaceUsage } from './entities/media-space-usage.entity';
import { MediaPresenter } from './services/media.presenter';
import { MediaUrlSignerService } from './services/media-url-signer.service';
import { MediaUrlsService } from './services/media-urls.service';
import { MediaLookupService } from './services/media-lookup.service';
import { MediaRepository } from './media.repository';

/**
 * The part of the media module other modules import (`MediaLookupService`): it depends on nothing but
 * the media tables and configuration, so spaces, posts, comments, pages, store and events use it
 * while the media routes, which resolve spaces (`SpacesModule` imports this module), sit in
 * `MediaModule`: one Nest module would import spaces and be imported by it, a cycle
 * (docs/decisions/0142-a-records-module-breaks-a-module-cycle.md). It also provides `MediaModule`
 * the repository, the URLs and their signer (one key per process).
 */
@Module({
  imports: [TypeOrmModule.forFeature([Media, MediaSpaceUsage])],
  providers: [MediaRepository, MediaUrlSignerService, MediaUrlsService, MediaPresenter, MediaLookupService],
  exports: [MediaRepository, MediaUrlSignerService, MediaUrlsService, MediaPresenter, MediaLookupService],
})
export class MediaRecordsModule {}
