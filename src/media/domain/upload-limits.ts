import type { AppConfig } from '../../config/app-config';
import type { MediaKind } from './media-types';

type LimitSettings = Pick<
  AppConfig,
  | 'MEDIA_MAX_IMAGE_BYTES'
  | 'MEDIA_MAX_AUDIO_BYTES'
  | 'MEDIA_MAX_VIDEO_BYTES'
  | 'MEDIA_MAX_FILE_BYTES'
  | 'MEDIA_UPLOAD_QUOTA_BYTES_PER_DAY'
>;

/**
 * The most one upload of `kind` may bring: its kind's limit (design.md §11 "Kinds and limits",
 * MEDIA_MAX_*_BYTES), never more than the whole daily quota.
 */
export function uploadLimit(kind: MediaKind, config: LimitSettings): number {
  return Math.min(largestOfKind(kind, config), config.MEDIA_UPLOAD_QUOTA_BYTES_PER_DAY);
}

function largestOfKind(kind: MediaKind, config: LimitSettings): number {
  switch (kind) {
    case 'image':
      return config.MEDIA_MAX_IMAGE_BYTES;
    case 'audio':
      return config.MEDIA_MAX_AUDIO_BYTES;
    case 'video':
      return config.MEDIA_MAX_VIDEO_BYTES;
    case 'file':
      return config.MEDIA_MAX_FILE_BYTES;
  }
}
