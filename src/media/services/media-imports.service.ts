import { Injectable, Logger } from '@nestjs/common';
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
  /**
   * Who the media is recorded as uploaded by: a service name starting `plat:` (e.g.
   * `plat:link-previews`), which `releaseImported` requires.
   */
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
  private readonly logger = new Logger(MediaImportsService.name);

  constructor(
    private readonly repository: MediaRepository,
    private readonly storage: MediaStorage,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** Stores the image and answers its media uuid; MediaImportRefused for bytes it does not keep. */
  async importImage(image: ImportedImage): Promise<string> {
    if (!image.ownerDid.startsWith('plat:')) throw new Error(`not a service name: ${image.ownerDid}`);
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

  /** Which of these imported images still exist, ready (one statement; none for no ids). */
  async existing(ids: readonly string[]): Promise<Set<string>> {
    const rows = await this.repository.readyByIds([...new Set(ids)]);
    return new Set(rows.map((media) => media.id));
  }

  /**
   * Deletes imported images the importing module no longer uses (it checked nobody refers to them
   * any more): their rows (one statement; only media with no space uploaded by a `plat:` service,
   * never a member's upload), then their stored bytes, original and image variants. No space
   * figure or quota moves: imported images count against neither. A file left behind by a storage
   * failure is logged, never thrown.
   */
  async releaseImported(ids: readonly string[]): Promise<void> {
    const released = await this.repository.deleteImported([...new Set(ids)]);
    for (const media of released) {
      try {
        if (media.storageKey) await this.storage.delete(media.storageKey);
        for (const key of await this.storage.list(
          `${media.id}/variants`,
          this.config.MEDIA_VARIANTS_PER_MEDIA,
        )) {
          await this.storage.delete(key);
        }
      } catch (error) {
        this.logger.warn(`bytes of released media ${media.id} not all deleted: ${String(error)}`);
      }
    }
  }
}
