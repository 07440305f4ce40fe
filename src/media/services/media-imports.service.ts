import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { pipeline, Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { newUuid } from '../../common/ids/entity-id';
import { AppConfig } from '../../config/app-config';
import { MEDIA_TYPES, MediaKind } from '../domain/media-types';
import { uploadLimit } from '../domain/upload-limits';
import type { MediaFacts } from '../media.repository';
import { SNIFF_SAMPLE_BYTES, sniffedType } from '../domain/sniffed-type';
import { MediaRepository } from '../media.repository';
import { ImageUndecodable, probeImage } from './images/image-probe';
import { MediaStorage } from './storage/media-storage';
import { AvProbeService } from './processing/av-probe.service';
import { ToolFailed, ToolMissing } from './processing/ffmpeg-tools';
import type { StoredMedia } from './processing/av-probe';
import { declaredTypeGate, sizeLimit, UploadNotDeclaredType, UploadTooLarge } from '../domain/upload-streams';
import { ScratchTooSmall } from '../domain/scratch-budget';

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
 * archive's, already checked as a mint's (MintMediaRequest); the bytes, streamed from the archive,
 * are checked here.
 */
export interface SpaceFileToStage {
  body: Readable;
  filename: string;
  contentType: string;
  alt: string | null;
}

/** A space archive's file stored and checked, its row not written yet (`recordStaged` writes it). */
export interface StagedSpaceFile {
  id: string;
  storageKey: string;
  length: number;
  facts: MediaFacts;
  filename: string;
  contentType: string;
  alt: string | null;
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
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: MediaRepository,
    private readonly storage: MediaStorage,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly avProbe: AvProbeService,
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
   * Streams a space archive's file into the store and checks it there as an upload's bytes are
   * checked (design.md §11 "Kinds and limits"): at most its kind's limit (counted as the bytes come),
   * the sniffed type the declared one, an image decodable within MEDIA_MAX_IMAGE_PIXELS, an audio or
   * video one ffprobe and ffmpeg read, probed once as its processing job would (duration, waveform,
   * poster `<id>/poster.jpg`; without ffprobe ready without its facts). No row is written
   * (docs/decisions/0237-a-space-import-streams-its-archive-through-the-store.md); a refusal removes
   * what was stored and throws MediaImportRefused naming the first rule broken.
   */
  async stageSpaceFile(file: SpaceFileToStage): Promise<StagedSpaceFile> {
    const kind = MEDIA_TYPES[file.contentType]?.kind;
    if (!kind) throw new MediaImportRefused(`${file.contentType} is not a type this service keeps`);
    const limit = this.limitOf(file.contentType)!;
    const id = newUuid();
    const storageKey = `${id}/original-${newUuid()}`;
    // The type is known before a byte reaches the store, as an upload's (upload-streams.ts).
    const checked = pipeline(
      file.body,
      sizeLimit(limit),
      declaredTypeGate(file.contentType),
      () => undefined,
    );
    let length: number;
    try {
      ({ size: length } = await this.storage.put(storageKey, checked, { contentType: file.contentType }));
    } catch (error) {
      if (error instanceof UploadTooLarge) {
        throw new MediaImportRefused(`more than ${limit} bytes, the limit of ${kind} uploads`);
      }
      if (error instanceof UploadNotDeclaredType) {
        throw new MediaImportRefused(
          `the bytes are ${error.found ?? 'of no known type'}, not ${file.contentType}`,
        );
      }
      throw error;
    }
    try {
      const media = { id, kind, contentType: file.contentType, storageKey, contentLength: length };
      const facts = await this.stagedFacts(media);
      return {
        id,
        storageKey,
        length,
        facts,
        filename: file.filename,
        contentType: file.contentType,
        alt: file.alt,
      };
    } catch (error) {
      await this.discardStaged([{ id, storageKey }]);
      throw error;
    }
  }

  /**
   * Writes a staged file's row as an upload's PUT (or its processing) leaves it, `ready` with its
   * facts, and the space's storage figure, in one transaction. Answers nothing: the id is the
   * staged one.
   */
  async recordStaged(spaceId: string, uploaderDid: string, file: StagedSpaceFile): Promise<void> {
    const media = this.readyRow({
      id: file.id,
      spaceId,
      uploaderDid,
      filename: file.filename,
      contentType: file.contentType,
      alt: file.alt,
      storageKey: file.storageKey,
      length: file.length,
      facts: file.facts,
    });
    await this.dataSource.transaction(async (manager) => {
      await this.repository.insert(media, manager);
      await this.repository.addStoredBytes(spaceId, file.length, manager);
    });
  }

  /** Removes staged files whose rows were never written: their bytes and posters. */
  async discardStaged(files: readonly Pick<StagedSpaceFile, 'id' | 'storageKey'>[]): Promise<void> {
    for (const file of files) {
      await this.storage.delete(file.storageKey);
      await this.storage.delete(`${file.id}/poster.jpg`);
    }
  }

  /** A staged file's facts, read from the store: an image's, an audio or video's, none for a file. */
  private async stagedFacts(
    media: StoredMedia & { kind: MediaKind; storageKey: string },
  ): Promise<MediaFacts> {
    if (media.kind === 'file') return {};
    if (media.kind === 'image') {
      try {
        return await probeImage(await this.storage.get(media.storageKey), this.config.MEDIA_MAX_IMAGE_PIXELS);
      } catch (error) {
        if (error instanceof ImageUndecodable) throw new MediaImportRefused(error.message);
        throw error;
      }
    }
    try {
      return await this.storedAvFacts(media);
    } catch (error) {
      // The verdicts that fail an upload's processing for good refuse the file here.
      if (error instanceof ToolFailed || error instanceof ScratchTooSmall) {
        throw new MediaImportRefused(error.message);
      }
      throw error;
    }
  }

  /** A stored audio or video's facts; without ffprobe none, as the processing job leaves them. */
  private async storedAvFacts(media: Parameters<AvProbeService['stored']>[0]): Promise<MediaFacts> {
    try {
      return await this.avProbe.stored(media);
    } catch (error) {
      if (!(error instanceof ToolMissing)) throw error;
      this.logger.warn(`imported media ${media.id} ready without audio/video facts: ${error.message}`);
      return {};
    }
  }

  /** The row of stored bytes as an upload's PUT (or its processing) leaves it: `ready`, its facts. */
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
      durationMs: row.facts.durationMs ?? null,
      waveformPeaks: row.facts.waveformPeaks ?? null,
      posterKey: row.facts.posterKey ?? null,
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
