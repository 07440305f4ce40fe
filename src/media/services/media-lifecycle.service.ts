import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { parseEntityId } from '../../common/ids/entity-id';
import { Media } from '../entities/media.entity';
import { MediaFacts, MediaRepository, StoredBytes } from '../media.repository';

/**
 * One media per upload, moved from pending to ready or failed exactly once; the space's storage
 * figure (`media_space_usage`, docs/decisions/0114-media-upload-quota.md) moves in the same
 * transaction as each write that stores or drops an upload's bytes.
 */
@Injectable()
export class MediaLifecycleService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: MediaRepository,
    private readonly clock: Clock,
  ) {}

  byId(id: string): Promise<Media | null> {
    return this.repository.byId(id);
  }

  /** The media behind a wire id, or null (malformed ids included). */
  async byWireId(mediaId: string): Promise<Media | null> {
    const id = parseEntityId('media', mediaId);
    return id ? this.repository.byId(id) : null;
  }

  /** The caller's own media of one space (`spaceId` null: their legacy uploads), or null. */
  async owned(mediaId: string, uploaderDid: string, spaceId: string | null): Promise<Media | null> {
    const id = parseEntityId('media', mediaId);
    if (!id) return null;
    return this.repository.owned(id, uploaderDid, spaceId);
  }

  /**
   * Refuses the bytes of a media still awaiting them; false when it is not (any more). The bytes
   * received before the refusal are kept in `content_length` (never shown for a failed media):
   * they count against the uploader's quota (upload-quota.service.ts).
   */
  fail(id: string, reason: string, receivedBytes = 0): Promise<boolean> {
    return this.repository.failAwaitingBytes(id, {
      failureReason: reason.slice(0, 500),
      contentLength: receivedBytes,
      updatedAt: this.clock.now(),
    });
  }

  /** Records what processing found of a media whose bytes are stored: it is ready. */
  processed(id: string, facts: MediaFacts): Promise<boolean> {
    return this.repository.markProcessed(id, facts, this.clock.now());
  }

  /** Processing refused a media whose bytes are stored: it fails, and its space's figure drops them. */
  async processingFailed(id: string, reason: string): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      if (!(await this.repository.failStored(id, reason.slice(0, 500), this.clock.now(), manager))) {
        return false;
      }
      await this.repository.dropStoredBytesOf([id], manager);
      return true;
    });
  }

  /**
   * The sweep (design.md §11): media never uploaded within `uploadTtlMs` are deleted (their URL
   * has expired); media whose processing has not finished within `processingTtlMs` of their
   * upload fail, their spaces' figures dropping their bytes. Answers how many were deleted, and
   * the failed ones (whose stored bytes the caller deletes).
   */
  async sweep(
    uploadTtlMs: number,
    processingTtlMs: number,
  ): Promise<{ deleted: number; failed: Pick<Media, 'id' | 'storageKey' | 'kind'>[] }> {
    const now = this.clock.now().getTime();
    const deleted = await this.repository.deleteNeverUploaded(new Date(now - uploadTtlMs));
    const failed = await this.dataSource.transaction(async (manager) => {
      const rows = await this.repository.failUnprocessed(
        new Date(now - processingTtlMs),
        new Date(now),
        manager,
      );
      await this.repository.dropStoredBytesOf(
        rows.map((row) => row.id),
        manager,
      );
      return rows;
    });
    return { deleted, failed };
  }

  /**
   * Records the stored bytes of a media still awaiting them, `ready` or (probing still to run)
   * `pending`; null when another upload finalized it first.
   */
  async finalize(media: Pick<Media, 'id' | 'spaceId'>, stored: StoredBytes): Promise<Media | null> {
    const now = this.clock.now();
    const finalized = await this.dataSource.transaction(async (manager) => {
      if (!(await this.repository.storeBytes(media.id, stored, now, manager))) return false;
      // The space's storage figure moves with the row (docs/decisions/0114-media-upload-quota.md).
      await this.repository.addStoredBytes(media.spaceId, stored.contentLength, manager);
      return true;
    });
    return finalized ? this.repository.saved(media.id) : null;
  }
}
