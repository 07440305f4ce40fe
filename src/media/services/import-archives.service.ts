import { Injectable } from '@nestjs/common';
import { PassThrough, pipeline, Readable } from 'node:stream';
import { newUuid } from '../../common/ids/entity-id';
import { sizeLimit, UploadTooLarge } from '../domain/upload-streams';
import { MediaStorage, StoredObject } from './storage/media-storage';

/** Import archives live under this folder of the media store; no media key starts with it (theirs are uuids). */
const ARCHIVE_FOLDER = 'imports';

/** The uploaded archive passed its cap while it was streamed; nothing was stored. */
export class ImportArchiveTooLarge extends Error {
  constructor(readonly cap: number) {
    super(`The archive is larger than ${cap} bytes`);
  }
}

/** A stored archive, read range by range (yauzl's random access: the central directory, then each entry). */
export interface StoredImportArchive {
  size: number;
  /** The bytes from `start` up to (not including) `end`. */
  range(start: number, end: number): Readable;
}

/**
 * The media store's part of a space import
 * (docs/decisions/0237-a-space-import-streams-its-archive-through-the-store.md): the uploaded
 * archive streamed into the store under a key of its own (`imports/<import>/<uuid>.zip`), never held
 * whole, read back by ranges, and removed once the import settled. As the export archives
 * (docs/decisions/0211-export-archives-in-the-media-store.md), an import row can only ever name
 * such a key.
 */
@Injectable()
export class ImportArchivesService {
  constructor(private readonly storage: MediaStorage) {}

  /**
   * Stores the body, refused with ImportArchiveTooLarge past `cap` bytes as they come; all or
   * nothing, as every `put` is.
   */
  async put(importId: string, body: Readable, cap: number): Promise<{ key: string } & StoredObject> {
    const key = `${ARCHIVE_FOLDER}/${importId}/${newUuid()}.zip`;
    try {
      const capped = pipeline(body, sizeLimit(cap), () => undefined);
      const stored = await this.storage.put(key, capped, { contentType: 'application/zip' });
      return { key, ...stored };
    } catch (error) {
      throw error instanceof UploadTooLarge ? new ImportArchiveTooLarge(cap) : error;
    }
  }

  /** The stored archive, or null when it is gone. */
  async open(key: string): Promise<StoredImportArchive | null> {
    const stat = await this.storage.stat(this.archiveKey(key));
    if (!stat) return null;
    return {
      size: stat.size,
      range: (start, end) => {
        // yauzl wants the stream at once; the store answers it asynchronously.
        const bytes = new PassThrough();
        if (end <= start) return (bytes.end(), bytes);
        this.storage.get(key, { start, end: end - 1 }).then(
          (stream) => {
            stream.on('error', (error) => bytes.destroy(error));
            stream.pipe(bytes);
          },
          (error: Error) => bytes.destroy(error),
        );
        return bytes;
      },
    };
  }

  /** Removes an archive; a gone one is no error. */
  remove(key: string): Promise<void> {
    return this.storage.delete(this.archiveKey(key));
  }

  /** Only import archive keys: an import row can never name a media's bytes. */
  private archiveKey(key: string): string {
    if (!key.startsWith(`${ARCHIVE_FOLDER}/`)) throw new Error(`not an import archive key: ${key}`);
    return key;
  }
}
