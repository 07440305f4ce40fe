import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import { availableParallelism } from 'node:os';
import { pipeline, Readable } from 'node:stream';
import pLimit from 'p-limit';
import { ApiError, conflict, invalidRequest, notFound } from '../../common/errors/api-error';
import { newUuid } from '../../common/ids/entity-id';
import { LegacyMediaInfo } from '../dto/legacy-media.dto';
import { MediaStatusResponse } from '../dto/space-media.dto';
import { Media } from '../entities/media.entity';
import { MediaPresenter } from './media.presenter';
import type { MediaFacts } from '../media.repository';
import { MediaLifecycleService } from './media-lifecycle.service';
import { ImageUndecodable, probeImage } from './images/image-probe';
import { AppConfig } from '../../config/app-config';
import { writeContinueIfExpected } from '../../infrastructure/http/expect-continue';
import { MediaProcessingService } from './processing/media-processing.service';
import { essenceOf } from '../domain/media-types';
import { MediaUrlSignerService } from './media-url-signer.service';
import { MediaStorage } from './storage/media-storage';
import { UploadQuotaService } from './upload-quota.service';
import { contentDisposition } from '../domain/content-disposition';
import { SNIFF_SAMPLE_BYTES } from '../domain/sniffed-type';
import { SignedUrlQuery } from '../../common/signing/signed-url-query.dto';
import {
  declaredTypeGate,
  requestBody,
  sizeLimit,
  UploadInterrupted,
  UploadNotDeclaredType,
  UploadTooLarge,
} from '../domain/upload-streams';

/**
 * After refusing an upload, the rest of its body is read and dropped (up to this much) so the
 * client, still sending, reads the refusal instead of a reset connection.
 */
const DISCARD_AT_MOST = 64 * 1024 * 1024;

/**
 * Images decoded at once for their facts. sharp holds a streamed image's bytes whole and libvips
 * decodes it with a thread per core, so more decodes at once add memory (the bytes and the pixels
 * of each) and no speed: with this bound, the memory an upload burst costs stays flat however
 * many bodies arrive together (bench: `media upload 5 MB image`). The bodies still stream.
 */
const IMAGE_PROBES_AT_ONCE = Math.max(1, availableParallelism());

/**
 * PUT /uploads/{media}?exp&sig (design.md §11 "Upload"): the signed URL is the whole
 * capability. The body streams through a size limit and a type check into storage under a key
 * of its own, and the media is finalized only if it still awaits its bytes, so concurrent PUTs
 * store one body and the others get 409. Refused bytes (too large, not the declared type, not the
 * declared length) fail the media and leave nothing in storage.
 */
@Injectable()
export class UploadService {
  private readonly logger = new Logger(UploadService.name);
  private readonly probeTurn = pLimit(IMAGE_PROBES_AT_ONCE);

  constructor(
    private readonly lifecycle: MediaLifecycleService,
    private readonly storage: MediaStorage,
    private readonly signer: MediaUrlSignerService,
    private readonly quota: UploadQuotaService,
    private readonly presenter: MediaPresenter,
    private readonly config: AppConfig,
    private readonly processing: MediaProcessingService,
  ) {}

  async receive(
    mediaId: string,
    query: SignedUrlQuery,
    request: Request,
  ): Promise<MediaStatusResponse | LegacyMediaInfo> {
    try {
      const media = await this.awaitingBytes(mediaId, query, request);
      // Never more than the mint counted against the uploader's quota (upload-quota.service.ts).
      const limit = Math.min(this.quota.uploadLimit(media.kind), media.declaredLength ?? Infinity);
      const announced = request.headers['content-length'];
      if (announced !== undefined && Number(announced) > limit) {
        throw await this.refuse(media, new UploadTooLarge(limit), 0);
      }
      writeContinueIfExpected(request, request.res);
      const stored = await this.store(media, request, limit);
      const facts = await this.probed(media, stored.storageKey, stored.contentLength);
      // Audio and video stay pending until their processing job has run.
      const processed = media.kind === 'audio' || media.kind === 'video';
      const finalized = await this.lifecycle.finalize(media, { ...stored, facts, ready: !processed });
      if (!finalized) {
        await this.storage.delete(stored.storageKey);
        throw conflict('This media already has its bytes');
      }
      if (processed) await this.processing.enqueue(finalized);
      return finalized.spaceId === null
        ? this.presenter.legacyInfo(finalized)
        : { media: this.presenter.object(finalized), status: finalized.state };
    } finally {
      // Not awaited: the answer (a refusal, while the client may still be sending) goes out now.
      this.discardRest(request);
    }
  }

  /** The media this signed URL uploads to, if it still awaits its bytes and the headers fit. */
  private async awaitingBytes(mediaId: string, query: SignedUrlQuery, request: Request): Promise<Media> {
    this.signer.verify({ kind: 'upload', mediaId }, query.exp, query.sig);
    const media = await this.lifecycle.byWireId(mediaId);
    if (!media) throw notFound();
    if (media.state === 'failed') throw conflict('This media’s upload was refused; mint a new one');
    if (media.state !== 'pending' || media.uploadedAt !== null) {
      throw conflict('This media already has its bytes');
    }
    const declaredType = request.headers['content-type'];
    if (declaredType === undefined || essenceOf(declaredType) !== media.contentType) {
      throw invalidRequest('Invalid request', [
        { path: 'Content-Type', message: `Content-Type must be ${media.contentType}, as declared` },
      ]);
    }
    if (
      media.spaceId === null &&
      request.headers['content-disposition'] !== contentDisposition(media.filename)
    ) {
      throw invalidRequest('Invalid request', [
        {
          path: 'Content-Disposition',
          message: 'Content-Disposition must equal the contentDispositionHeader of the mint',
        },
      ]);
    }
    return media;
  }

  /** Streams the body to storage; on a refusal of the bytes the media fails and nothing is kept. */
  private async store(
    media: Media,
    request: Request,
    limit: number,
  ): Promise<{ storageKey: string; contentLength: number }> {
    const storageKey = `${media.id}/original-${newUuid()}`;
    let size: number;
    try {
      ({ size } = await this.storage.put(storageKey, this.checkedBody(media, request, limit), {
        contentType: media.contentType,
      }));
    } catch (error) {
      if (error instanceof UploadTooLarge) throw await this.refuse(media, error, error.limit);
      if (error instanceof UploadNotDeclaredType) throw await this.refuse(media, error, SNIFF_SAMPLE_BYTES);
      if (error instanceof UploadInterrupted) throw invalidRequest(error.message);
      throw error;
    }
    if (media.declaredLength !== null && size !== media.declaredLength) {
      await this.storage.delete(storageKey);
      throw await this.refuse(
        media,
        new Error(`The upload has ${size} bytes; ${media.declaredLength} were declared`),
        size,
      );
    }
    return { storageKey, contentLength: size };
  }

  /**
   * What an image's bytes show (width, height, blurHash), read back from storage; an image that
   * does not decode is refused like any other wrong bytes.
   */
  private async probed(media: Media, storageKey: string, size: number): Promise<MediaFacts> {
    if (media.kind !== 'image') return {};
    try {
      return await this.probeTurn(async () =>
        probeImage(await this.storage.get(storageKey), this.config.MEDIA_MAX_IMAGE_PIXELS),
      );
    } catch (error) {
      if (!(error instanceof ImageUndecodable)) throw error;
      await this.storage.delete(storageKey);
      throw await this.refuse(media, error, size);
    }
  }

  /** The request body (the request itself never destroyed) through the size limit and the type check. */
  private checkedBody(media: Media, request: Request, limit: number): Readable {
    return pipeline(
      requestBody(request),
      sizeLimit(limit),
      declaredTypeGate(media.contentType),
      () => undefined,
    );
  }

  /**
   * Fails the media for this refusal of its bytes and answers it: 413 past the limit, else 400.
   * The bytes received (at most) count against the uploader's quota all the same.
   */
  private async refuse(media: Media, refusal: Error, receivedBytes: number): Promise<ApiError> {
    await this.lifecycle.fail(media.id, refusal.message, receivedBytes);
    this.logger.log(`media ${media.id} failed: ${refusal.message}`);
    if (refusal instanceof UploadTooLarge) return new ApiError(HttpStatus.PAYLOAD_TOO_LARGE, refusal.message);
    return invalidRequest('Invalid request', [{ path: 'body', message: refusal.message }]);
  }

  /**
   * Reads and drops what the client still sends, behind the answer, so a client still sending reads
   * the answer instead of a reset connection; past DISCARD_AT_MOST the connection is closed.
   */
  private discardRest(request: Request): void {
    if (request.complete || request.destroyed) return;
    request.unpipe();
    let discarded = 0;
    const count = (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded <= DISCARD_AT_MOST) return;
      request.off('data', count);
      request.destroy();
    };
    request.on('data', count);
    request.resume();
  }
}
