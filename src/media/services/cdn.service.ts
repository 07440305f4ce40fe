import { Injectable, StreamableFile } from '@nestjs/common';
import type { Request, Response } from 'express';
import { notFound } from '../../common/errors/api-error';
import { ImageTransformQuery } from '../dto/image-transform-query.dto';
import { Media } from '../entities/media.entity';
import {
  etagOf,
  FORMAT_TYPES,
  ImageFormat,
  ImageTransform,
  isOriginal,
  negotiatedFormat,
  originalFormatOf,
} from '../domain/image-transform';
import { boundedTransform } from '../domain/image-geometry';
import { ImageVariantsService, MAYBE_ANIMATED, ServedVariant } from './images/image-variants.service';
import { MediaLifecycleService } from './media-lifecycle.service';
import { MediaStorage } from './storage/media-storage';
import { contentDisposition } from '../domain/content-disposition';
import { etagMatches } from '../domain/byte-range';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * GET /cdn/{media}/{filename} (design.md §11 "URLs"): a ready image, anonymously, under its own
 * file name, as it was uploaded or transformed (`w`, `h`, `fit`, `auto=format`), never larger than
 * the original (docs/decisions/0107-image-transform-bounds.md). The bytes never change for a URL (and
 * Accept, with `auto=format`), so they are cacheable for a year.
 */
@Injectable()
export class CdnService {
  constructor(
    private readonly lifecycle: MediaLifecycleService,
    private readonly storage: MediaStorage,
    private readonly variants: ImageVariantsService,
  ) {}

  async serve(
    mediaId: string,
    filename: string,
    query: ImageTransformQuery,
    request: Request,
    response: Response,
  ): Promise<StreamableFile | undefined> {
    const media = await this.lifecycle.byWireId(mediaId);
    if (!media || media.kind !== 'image' || media.state !== 'ready' || media.filename !== filename) {
      throw notFound();
    }
    const negotiated = query.auto === 'format';
    const source = { width: media.width ?? 0, height: media.height ?? 0 };
    const transform = boundedTransform(
      source,
      this.transformOf(media, query, negotiated ? request.headers.accept : undefined),
    );
    const served: ServedVariant & { type: string } = isOriginal(media, transform)
      ? { key: media.storageKey!, size: media.contentLength!, type: media.contentType }
      : { ...(await this.variants.ensure(media, source, transform)), type: FORMAT_TYPES[transform.format] };
    const etag = etagOf(served.key);
    response.setHeader('Cache-Control', IMMUTABLE);
    response.setHeader('ETag', etag);
    if (negotiated) response.setHeader('Vary', 'Accept');
    if (etagMatches(request.headers['if-none-match'], etag)) {
      response.status(304);
      return undefined;
    }
    response.setHeader('Content-Type', served.type);
    response.setHeader('Content-Length', served.size);
    response.setHeader(
      'Content-Disposition',
      contentDisposition(
        renamed(media.filename, transform.format, originalFormatOf(media)),
        query.download ? 'attachment' : 'inline',
      ),
    );
    if (served.bytes) return new StreamableFile(served.bytes);
    return new StreamableFile(await this.storage.get(served.key));
  }

  private transformOf(media: Media, query: ImageTransformQuery, accept: string | undefined): ImageTransform {
    const original = originalFormatOf(media);
    return {
      width: query.w === undefined ? undefined : Number(query.w),
      height: query.h === undefined ? undefined : Number(query.h),
      fit: query.fit ?? 'cover',
      format:
        query.auto === 'format'
          ? negotiatedFormat(original, accept, MAYBE_ANIMATED.has(media.contentType))
          : original,
    };
  }
}

/** The file name with the extension of the format served (`photo.png` served as WebP: `photo.webp`). */
function renamed(filename: string, format: ImageFormat, original: ImageFormat): string {
  if (format === original) return filename;
  const dot = filename.lastIndexOf('.');
  return `${dot > 0 ? filename.slice(0, dot) : filename}.${format === 'jpeg' ? 'jpg' : format}`;
}
