import { Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import { Clock } from '../../common/clock/clock';
import { newUuid } from '../../common/ids/entity-id';
import { AppConfig } from '../../config/app-config';
import { MEDIA_TYPES } from '../domain/media-types';
import { SNIFF_SAMPLE_BYTES, sniffedType } from '../domain/sniffed-type';
import { MediaRepository } from '../media.repository';
import { ImageUndecodable, probeImage } from './images/image-probe';
import { MediaStorage } from './storage/media-storage';

/** Bytes another module fetched that are not an image we keep (too large, not an image, undecodable). */
export class MediaImportRefused extends Error {}

/** An image another module fetched, to keep as a public media of ours. */
export interface ImportedImage {
  bytes: Buffer;
  /** The name it is served under (`/cdn/<id>/<name>`); its extension is replaced by the sniffed type's. */
  filename: string;
  /** Who the media is recorded as uploaded by (a service name, e.g. `plat:link-previews`). */
  ownerDid: string;
  /** At most this many bytes (and never more than MEDIA_MAX_IMAGE_BYTES). */
  maxBytes: number;
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/**
 * Images the service fetched itself (link previews), kept as `ready` public media of ours: their
 * type sniffed from the bytes (PNG, JPEG, GIF or WebP only), size and pixel limits as for uploads,
 * stored through MediaStorage and probed like an upload, so `/cdn/<id>/<name>` serves them with the
 * transforms. No space, no quota: they belong to the service.
 */
@Injectable()
export class MediaImportsService {
  constructor(
    private readonly repository: MediaRepository,
    private readonly storage: MediaStorage,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** Stores the image and answers its media uuid; MediaImportRefused for bytes it does not keep. */
  async importImage(image: ImportedImage): Promise<string> {
    const limit = Math.min(image.maxBytes, this.config.MEDIA_MAX_IMAGE_BYTES);
    if (image.bytes.length === 0) throw new MediaImportRefused('empty');
    if (image.bytes.length > limit)
      throw new MediaImportRefused(`${image.bytes.length} bytes, more than ${limit}`);
    const found = await sniffedType(image.bytes.subarray(0, SNIFF_SAMPLE_BYTES));
    const contentType = found === 'image/apng' ? 'image/png' : found;
    if (!contentType || MEDIA_TYPES[contentType]?.kind !== 'image' || !EXTENSIONS[contentType]) {
      throw new MediaImportRefused(`not an image we keep (${found ?? 'unknown type'})`);
    }
    let facts;
    try {
      facts = await probeImage(Readable.from([image.bytes]), this.config.MEDIA_MAX_IMAGE_PIXELS);
    } catch (error) {
      if (error instanceof ImageUndecodable) throw new MediaImportRefused(error.message);
      throw error;
    }
    const id = newUuid();
    const storageKey = `${id}/original-${newUuid()}`;
    await this.storage.put(storageKey, Readable.from([image.bytes]), { contentType });
    const now = this.clock.now();
    const stem = image.filename
      .replace(/\.[A-Za-z0-9]{1,5}$/, '')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .slice(0, 100);
    await this.repository.insert(
      this.repository.create({
        id,
        spaceId: null,
        uploaderDid: image.ownerDid,
        filename: `${stem || 'image'}.${EXTENSIONS[contentType]}`,
        contentType,
        kind: 'image',
        alt: null,
        declaredLength: image.bytes.length,
        state: 'ready',
        failureReason: null,
        storageKey,
        contentLength: image.bytes.length,
        width: facts.width,
        height: facts.height,
        blurHash: facts.blurHash,
        durationMs: null,
        waveformPeaks: null,
        posterKey: null,
        createdAt: now,
        updatedAt: now,
        uploadedAt: now,
      }),
    );
    return id;
  }
}
