import { Injectable } from '@nestjs/common';
import { formatEntityId } from '../../common/ids/entity-id';
import { LegacyMediaInfo } from '../dto/legacy-media.dto';
import { MediaObject } from '../dto/media-object.dto';
import { Media } from '../entities/media.entity';
import { MediaUrlsService } from './media-urls.service';

/** Media rows as the wire shows them: api-spec.md's Media object, and the legacy media info. */
@Injectable()
export class MediaPresenter {
  constructor(private readonly urls: MediaUrlsService) {}

  /**
   * api-spec.md "Media object": images by their permanent CDN URL; audio, video and files by a URL
   * signed now, with `urlExpiresAt`. Optional members are present only when known.
   */
  object(media: Media): MediaObject {
    const object: MediaObject = {
      id: formatEntityId('media', media.id),
      filename: media.filename,
      url: '',
      contentType: media.contentType,
    };
    // Images are public; everything else is signed, every URL of it until the same instant.
    const exp = media.kind === 'image' ? undefined : this.urls.fileExpiry();
    object.url = exp === undefined ? this.urls.cdn(media) : this.urls.signedFile(media, exp);
    if (media.state === 'ready' && media.contentLength !== null) object.contentLength = media.contentLength;
    if (media.width !== null) object.width = media.width;
    if (media.height !== null) object.height = media.height;
    if (media.blurHash !== null) object.blurHash = media.blurHash;
    if (media.alt !== null) object.alt = media.alt;
    if (media.durationMs !== null) object.durationMs = media.durationMs;
    if (media.state === 'ready' && media.posterKey !== null && exp !== undefined) {
      object.posterUrl = this.urls.signedPoster(media, exp);
    }
    if (media.state === 'ready' && media.contentType === 'video/mp4') object.playbackUrl = object.url;
    if (exp !== undefined) object.urlExpiresAt = new Date(exp * 1000).toISOString();
    if (media.waveformPeaks !== null) object.waveformPeaks = media.waveformPeaks;
    return object;
  }

  /** GET /media/{media}: the public URLs appear once the upload is ready. */
  legacyInfo(media: Media): LegacyMediaInfo {
    const ready = media.state === 'ready';
    const url = this.urls.cdn(media);
    return {
      id: formatEntityId('media', media.id),
      filename: media.filename,
      contentType: media.contentType,
      size: ready ? media.contentLength : null,
      url,
      blurHash: media.blurHash,
      width: media.width,
      height: media.height,
      publicDownloadUrl: ready ? `${url}?download=1` : null,
      canonicalUri: ready ? url : null,
      createdAt: media.createdAt.toISOString(),
    };
  }
}
