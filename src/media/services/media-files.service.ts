import { HttpStatus, Injectable, StreamableFile } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiError, notFound } from '../../common/errors/api-error';
import { etagOf } from '../domain/image-transform';
import { MediaLifecycleService } from './media-lifecycle.service';
import { MediaUrlSignerService } from './media-url-signer.service';
import { MediaStorage } from './storage/media-storage';
import { contentDisposition } from '../domain/content-disposition';
import { SignedUrlQuery } from '../../common/signing/signed-url-query.dto';
import { etagMatches, rangeOf } from '../domain/byte-range';

/**
 * GET /media-files/{media}/{filename}?exp&sig (design.md §11 "URLs"): audio, video and files by
 * a signed URL, with `Range` for streaming (206; 416 past the end). Audio and video play inline;
 * other files download. Like every data response they are `Cache-Control: no-store` (api-spec.md
 * "Data responses always carry `Cache-Control: no-store`"; docs/decisions/0113-media-status-and-no-store.md).
 */
@Injectable()
export class MediaFilesService {
  constructor(
    private readonly lifecycle: MediaLifecycleService,
    private readonly storage: MediaStorage,
    private readonly signer: MediaUrlSignerService,
  ) {}

  async serve(
    mediaId: string,
    filename: string,
    query: SignedUrlQuery,
    request: Request,
    response: Response,
  ): Promise<StreamableFile | undefined> {
    this.signer.verify({ kind: 'file', mediaId, filename }, query.exp, query.sig);
    const media = await this.lifecycle.byWireId(mediaId);
    if (!media || media.kind === 'image' || media.state !== 'ready' || media.filename !== filename) {
      throw notFound();
    }
    const size = media.contentLength!;
    const etag = etagOf(media.storageKey!);
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('Accept-Ranges', 'bytes');
    response.setHeader('ETag', etag);
    if (etagMatches(request.headers['if-none-match'], etag)) {
      response.status(304);
      return undefined;
    }
    const ifRange = request.headers['if-range'];
    const wanted =
      ifRange === undefined || ifRange === etag
        ? rangeOf(request.headers.range, size)
        : { kind: 'whole' as const };
    if (wanted.kind === 'unsatisfiable') {
      throw new ApiError(
        HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE,
        `The file has ${size} bytes`,
        {},
        {
          'Content-Range': `bytes */${size}`,
        },
      );
    }
    response.setHeader('Content-Type', media.contentType);
    response.setHeader(
      'Content-Disposition',
      contentDisposition(media.filename, media.kind === 'file' ? 'attachment' : 'inline'),
    );
    if (wanted.kind === 'whole') {
      response.setHeader('Content-Length', size);
      return new StreamableFile(await this.storage.get(media.storageKey!));
    }
    const { start, end } = wanted.range;
    response.status(HttpStatus.PARTIAL_CONTENT);
    response.setHeader('Content-Range', `bytes ${start}-${end}/${size}`);
    response.setHeader('Content-Length', end - start + 1);
    return new StreamableFile(await this.storage.get(media.storageKey!, wanted.range));
  }

  /** GET /media-posters/{media}.jpg?exp&sig: the poster of a ready audio or video. */
  async servePoster(
    mediaId: string,
    query: SignedUrlQuery,
    request: Request,
    response: Response,
  ): Promise<StreamableFile | undefined> {
    this.signer.verify({ kind: 'poster', mediaId }, query.exp, query.sig);
    const media = await this.lifecycle.byWireId(mediaId);
    if (!media || media.state !== 'ready' || media.posterKey === null) throw notFound();
    const stored = await this.storage.stat(media.posterKey);
    if (!stored) throw notFound();
    const etag = etagOf(media.posterKey);
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('ETag', etag);
    if (etagMatches(request.headers['if-none-match'], etag)) {
      response.status(304);
      return undefined;
    }
    response.setHeader('Content-Type', 'image/jpeg');
    response.setHeader('Content-Length', stored.size);
    return new StreamableFile(await this.storage.get(media.posterKey));
  }
}
