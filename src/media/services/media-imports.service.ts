import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { newUuid } from '../../common/ids/entity-id';
import { AppConfig } from '../../config/app-config';
import { bytesMatch, MEDIA_TYPES, MediaKind } from '../domain/media-types';
import { uploadLimit } from '../domain/upload-limits';
import type { MediaFacts } from '../media.repository';
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

/**
 * A file of a space archive, to keep as an upload of the importer to the new space
 * (docs/decisions/0231-a-space-import-copies-its-media.md): the declared type and name are the
 * archive's, already checked as a mint's (MintMediaRequest); the bytes are checked here.
 */
export interface ImportedSpaceFile {
  bytes: Buffer;
  filename: string;
  contentType: string;
  alt: string | null;
}

/** Kinds an import keeps: those ready once stored (audio and video wait for processing). */
const IMPORTED_KINDS: readonly MediaKind[] = ['image', 'file'];

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
    @InjectDataSource() private readonly dataSource: DataSource,
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
    const stem = image.filename
      .replace(/\.[A-Za-z0-9]{1,5}$/, '')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .slice(0, 100);
    await this.repository.insert(
      this.readyRow({
        id,
        spaceId: null,
        uploaderDid: image.ownerDid,
        filename: `${stem || 'image'}.${EXTENSIONS[contentType]}`,
        contentType,
        alt: null,
        storageKey,
        length: image.bytes.length,
        facts,
      }),
    );
    return id;
  }

  /**
   * Checks a space archive's file as an upload's bytes are checked (design.md §11 "Kinds and
   * limits"): its kind one an import keeps, at most its kind's limit, the sniffed type the declared
   * one, an image decodable within MEDIA_MAX_IMAGE_PIXELS. Stores nothing; answers what the bytes
   * show; MediaImportRefused names the first rule broken.
   */
  async checkSpaceFile(file: ImportedSpaceFile): Promise<MediaFacts> {
    const kind = MEDIA_TYPES[file.contentType]?.kind;
    if (!kind) throw new MediaImportRefused(`${file.contentType} is not a type this service keeps`);
    if (!IMPORTED_KINDS.includes(kind)) {
      throw new MediaImportRefused(`${kind} is not imported (it needs processing first)`);
    }
    const limit = this.limitOf(file.contentType)!;
    if (file.bytes.length > limit) {
      throw new MediaImportRefused(`${file.bytes.length} bytes, more than ${limit} for ${kind} uploads`);
    }
    const found = await sniffedType(file.bytes.subarray(0, SNIFF_SAMPLE_BYTES));
    if (!bytesMatch(file.contentType, found)) {
      throw new MediaImportRefused(`the bytes are ${found ?? 'of no known type'}, not ${file.contentType}`);
    }
    if (kind !== 'image') return {};
    try {
      return await probeImage(Readable.from([file.bytes]), this.config.MEDIA_MAX_IMAGE_PIXELS);
    } catch (error) {
      if (error instanceof ImageUndecodable) throw new MediaImportRefused(error.message);
      throw error;
    }
  }

  /**
   * Stores a checked file as a `ready` upload of `uploaderDid` to the space, as an upload's PUT
   * would leave it: its bytes in MediaStorage, its row and the space's storage figure in one
   * transaction. Answers the new media's uuid.
   */
  async importSpaceFile(spaceId: string, uploaderDid: string, file: ImportedSpaceFile): Promise<string> {
    const facts = await this.checkSpaceFile(file);
    const id = newUuid();
    const storageKey = `${id}/original-${newUuid()}`;
    await this.storage.put(storageKey, Readable.from([file.bytes]), { contentType: file.contentType });
    const media = this.readyRow({
      id,
      spaceId,
      uploaderDid,
      filename: file.filename,
      contentType: file.contentType,
      alt: file.alt,
      storageKey,
      length: file.bytes.length,
      facts,
    });
    try {
      await this.dataSource.transaction(async (manager) => {
        await this.repository.insert(media, manager);
        await this.repository.addStoredBytes(spaceId, file.bytes.length, manager);
      });
    } catch (error) {
      await this.storage.delete(storageKey);
      throw error;
    }
    return id;
  }

  /** The row of stored bytes as an upload's PUT leaves it: `ready`, its facts, no processing. */
  private readyRow(row: {
    id: string;
    spaceId: string | null;
    uploaderDid: string;
    filename: string;
    contentType: string;
    alt: string | null;
    storageKey: string;
    length: number;
    facts: MediaFacts;
  }) {
    const now = this.clock.now();
    return this.repository.create({
      id: row.id,
      spaceId: row.spaceId,
      uploaderDid: row.uploaderDid,
      filename: row.filename,
      contentType: row.contentType,
      kind: MEDIA_TYPES[row.contentType].kind,
      alt: row.alt,
      declaredLength: row.length,
      state: 'ready',
      failureReason: null,
      storageKey: row.storageKey,
      contentLength: row.length,
      width: row.facts.width ?? null,
      height: row.facts.height ?? null,
      blurHash: row.facts.blurHash ?? null,
      durationMs: null,
      waveformPeaks: null,
      posterKey: null,
      createdAt: now,
      updatedAt: now,
      uploadedAt: now,
    });
  }

  /** The most one upload of this type may bring (its kind's limit, never more than the daily quota). */
  limitOf(contentType: string): number | undefined {
    const kind = MEDIA_TYPES[contentType]?.kind;
    return kind && uploadLimit(kind, this.config);
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
