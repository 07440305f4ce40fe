import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Media } from './entities/media.entity';
import { MediaSpaceUsage } from './entities/media-space-usage.entity';
import { MediaPresenter } from './services/media.presenter';
import { MediaUrlSigner } from './services/media-url-signer.service';
import { MediaUrlsService } from './services/media-urls.service';
import { MediaLookup } from './services/media-lookup.service';

/**
 * The part of the media module other modules import (`MediaLookup`): it depends on nothing but
 * the media table and configuration, so spaces, posts, comments, pages, store and events use it
 * while the media routes (which resolve spaces) sit in `MediaModule`.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Media, MediaSpaceUsage])],
  providers: [MediaUrlSigner, MediaUrlsService, MediaPresenter, MediaLookup],
  exports: [MediaUrlSigner, MediaUrlsService, MediaPresenter, MediaLookup],
})
export class MediaRecordsModule {}
