import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Media } from '../entities/media.entity';
import { MediaSpaceUsage } from '../entities/media-space-usage.entity';
import { MediaPresenter } from '../media-presenter';
import { MediaUrlSigner } from '../media-url-signer';
import { MediaUrls } from '../media-urls';
import { MediaLookup } from './media-lookup';

/**
 * The part of the media module other modules import (`MediaLookup`): it depends on nothing but
 * the media table and configuration, so spaces, posts, comments, pages, store and events use it
 * while the media routes (which resolve spaces) sit in `MediaModule`.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Media, MediaSpaceUsage])],
  providers: [MediaUrlSigner, MediaUrls, MediaPresenter, MediaLookup],
  exports: [MediaUrlSigner, MediaUrls, MediaPresenter, MediaLookup],
})
export class MediaRecordsModule {}
