import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import type { MediaKind } from './media-types';

/** The largest upload of each kind (design.md §11 "Kinds and limits", MEDIA_MAX_*_BYTES). */
@Injectable()
export class MediaLimits {
  constructor(private readonly config: AppConfig) {}

  maxBytes(kind: MediaKind): number {
    switch (kind) {
      case 'image':
        return this.config.MEDIA_MAX_IMAGE_BYTES;
      case 'audio':
        return this.config.MEDIA_MAX_AUDIO_BYTES;
      case 'video':
        return this.config.MEDIA_MAX_VIDEO_BYTES;
      case 'file':
        return this.config.MEDIA_MAX_FILE_BYTES;
    }
  }
}
