import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Readable } from 'node:stream';
import { newUuid } from '../../common/ids/entity-id';
import { formatEntityId } from '../../common/ids/entity-id';
import {
  EXPORT_PAGE_ROWS,
  exportCursorOf,
  exportCursorValues,
  ExportPage,
  exportPageOf,
} from '../../common/export/export-page';
import type { Media } from '../entities/media.entity';
import { MediaRepository } from '../media.repository';
import { MediaStorage, StoredObject } from './storage/media-storage';

/** What the export's `media.json`-like listing says of one uploaded file. */
export interface ExportedMediaRecord {
  id: string;
  spaceId: string | null;
  filename: string;
  contentType: string;
  kind: string;
  alt: string | null;
  size: number | null;
  createdAt: string;
}

/** One of the person's files: its record, and its bytes, opened when the archive reaches them. */
export interface ExportedMediaFile {
  record: ExportedMediaRecord;
  open(): Promise<Readable>;
}

/** Archives live under this folder of the media store; no media key starts with it (theirs are uuids). */
const ARCHIVE_FOLDER = 'exports';

/**
 * The media module's part of a personal export (issue 35 item 3;
 * docs/decisions/0211-export-archives-in-the-media-store.md): the person's uploaded files, a keyset
 * page of records per call (one statement) whose bytes are streamed from the store one by one, and
 * the store of the finished archives themselves, under keys this module chooses (`exports/…`).
 */
@Injectable()
export class MediaExportService {
  constructor(
    private readonly media: MediaRepository,
    private readonly storage: MediaStorage,
  ) {}

  async pageOf(
    uploaderDid: string,
    after: string | null,
    runner?: EntityManager,
    limit = EXPORT_PAGE_ROWS,
  ): Promise<ExportPage<ExportedMediaFile>> {
    const rows = await this.media.exportPage(
      uploaderDid,
      after ? exportCursorValues(after) : null,
      limit + 1,
      runner,
    );
    return this.filesOf(rows, limit);
  }

  /**
   * A page of a space's ready files, every uploader's, for the space's export (issue 35 item 4;
   * docs/decisions/0217-space-export-media.md): one statement, oldest first.
   */
  async pageOfSpace(
    spaceId: string,
    after: string | null,
    runner?: EntityManager,
    limit = EXPORT_PAGE_ROWS,
  ): Promise<ExportPage<ExportedMediaFile>> {
    const rows = await this.media.exportPageOfSpace(
      spaceId,
      after ? exportCursorValues(after) : null,
      limit + 1,
      runner,
    );
    return this.filesOf(rows, limit);
  }

  private filesOf(rows: Media[], limit: number): ExportPage<ExportedMediaFile> {
    return exportPageOf(
      rows,
      limit,
      (row) => exportCursorOf(row.createdAt, row.id),
      (row) => {
        const key = row.storageKey!;
        return {
          record: {
            id: formatEntityId('media', row.id),
            spaceId: row.spaceId ? formatEntityId('space', row.spaceId) : null,
            filename: row.filename,
            contentType: row.contentType,
            kind: row.kind,
            alt: row.alt,
            size: row.contentLength,
            createdAt: row.createdAt.toISOString(),
          },
          open: () => this.storage.get(key),
        };
      },
    );
  }

  /**
   * Stores an archive's bytes under a key of its own (a new one per attempt): all or nothing, as
   * every `put` is, so a build cut short leaves nothing anyone could be handed.
   */
  async putArchive(exportId: string, body: Readable): Promise<{ key: string } & StoredObject> {
    const key = `${ARCHIVE_FOLDER}/${exportId}/${newUuid()}.zip`;
    const stored = await this.storage.put(key, body, { contentType: 'application/zip' });
    return { key, ...stored };
  }

  /** The archive's bytes; StoredObjectMissing when it is gone. */
  openArchive(key: string): Promise<Readable> {
    return this.storage.get(this.archiveKey(key));
  }

  /** The archive's size, or null when it is gone. */
  statArchive(key: string): Promise<StoredObject | null> {
    return this.storage.stat(this.archiveKey(key));
  }

  /** Removes an archive; a gone one is no error. */
  removeArchive(key: string): Promise<void> {
    return this.storage.delete(this.archiveKey(key));
  }

  /** Only archive keys: an export row can never name a media's bytes. */
  private archiveKey(key: string): string {
    if (!key.startsWith(`${ARCHIVE_FOLDER}/`)) throw new Error(`not an export archive key: ${key}`);
    return key;
  }
}
