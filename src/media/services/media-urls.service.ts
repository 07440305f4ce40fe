import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { formatEntityId } from '../../common/ids/entity-id';
import { Media } from '../entities/media.entity';
import { MediaUrlSignerService, signedQueryString } from './media-url-signer.service';

/** The URLs of a media (design.md §11 "URLs"), all under PUBLIC_BASE_URL. */
@Injectable()
export class MediaUrlsService {
  constructor(
    private readonly config: AppConfig,
    private readonly signer: MediaUrlSignerService,
  ) {}

  /** Where the uploader PUTs the bytes, valid MEDIA_UPLOAD_TTL seconds. */
  upload(media: Media): string {
    const mediaId = formatEntityId('media', media.id);
    const query = this.signer.sign(
      { kind: 'upload', mediaId },
      this.signer.expiryIn(this.config.MEDIA_UPLOAD_TTL),
    );
    return `${this.config.publicBaseUrl}/uploads/${mediaId}?${signedQueryString(query)}`;
  }

  /** An image's permanent public URL. */
  cdn(media: Media): string {
    return `${this.config.publicBaseUrl}/cdn/${formatEntityId('media', media.id)}/${encodeURIComponent(media.filename)}`;
  }

  /** When URLs signed now expire (unix seconds): MEDIA_URL_TTL from now. */
  fileExpiry(): number {
    return this.signer.expiryIn(this.config.MEDIA_URL_TTL);
  }

  /** The media's own file, signed until `exp`. */
  signedFile(media: Media, exp: number): string {
    const mediaId = formatEntityId('media', media.id);
    const query = this.signer.sign({ kind: 'file', mediaId, filename: media.filename }, exp);
    return `${this.config.publicBaseUrl}/media-files/${mediaId}/${encodeURIComponent(media.filename)}?${signedQueryString(query)}`;
  }

  /** Its poster (a video frame, an audio file's cover art), signed until `exp`. */
  signedPoster(media: Media, exp: number): string {
    const mediaId = formatEntityId('media', media.id);
    const query = this.signer.sign({ kind: 'poster', mediaId }, exp);
    return `${this.config.publicBaseUrl}/media-posters/${mediaId}.jpg?${signedQueryString(query)}`;
  }
}
