import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, LessThan, Not, Repository } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { newUuid, parseEntityId } from '../common/ids/entity-id';
import { Media } from './entities/media.entity';
import { MEDIA_BY_ID, mediaOfRow, MediaRow } from './media-row-sql';
import { MEDIA_TYPES, MediaKind } from './domain/media-types';
import { addStoredBytes, dropStoredBytesOf } from './space-stored-bytes';

export interface NewMedia {
  spaceId: string | null;
  uploaderDid: string;
  filename: string;
  contentType: string;
  declaredLength?: number | null;
  alt?: string | null;
}

/** What probing found; stored with the bytes when the upload is finalized. */
export type MediaFacts = Partial<
  Pick<Media, 'width' | 'height' | 'blurHash' | 'durationMs' | 'waveformPeaks' | 'posterKey'>
>;

/** The media table: one row per upload, moved from pending to ready or failed exactly once. */
@Injectable()
export class MediaRows {
  constructor(
    @InjectRepository(Media) private readonly media: Repository<Media>,
    private readonly clock: Clock,
  ) {}

  /** A new pending row, not yet saved (UploadQuotaService saves it within its uploader's quota). */
  newRow(fields: NewMedia): Media {
    const now = this.clock.now();
    return this.media.create({
      id: newUuid(),
      spaceId: fields.spaceId,
      uploaderDid: fields.uploaderDid,
      filename: fields.filename,
      contentType: fields.contentType,
      kind: MEDIA_TYPES[fields.contentType].kind,
      alt: fields.alt ?? null,
      declaredLength: fields.declaredLength ?? null,
      state: 'pending',
      failureReason: null,
      storageKey: null,
      contentLength: null,
      width: null,
      height: null,
      blurHash: null,
      durationMs: null,
      waveformPeaks: null,
      posterKey: null,
      createdAt: now,
      updatedAt: now,
      uploadedAt: null,
    });
  }

  /** The media behind a wire id, or null (malformed ids included). */
  async byWireId(mediaId: string): Promise<Media | null> {
    const id = parseEntityId('media', mediaId);
    return id ? this.byId(id) : null;
  }

  /** The caller's own media of one space (`spaceId` null: their legacy uploads), or null. */
  async owned(mediaId: string, uploaderDid: string, spaceId: string | null): Promise<Media | null> {
    const id = parseEntityId('media', mediaId);
    if (!id) return null;
    return this.media.findOneBy({ id, uploaderDid, spaceId: spaceId ?? IsNull() });
  }

  /**
   * Refuses the bytes of a media still awaiting them; false when it is not (any more). The bytes
   * received before the refusal are kept in `content_length` (never shown for a failed media):
   * they count against the uploader's quota (upload-quota.ts).
   */
  async fail(id: string, reason: string, receivedBytes = 0): Promise<boolean> {
    const result = await this.media.update(
      { id, state: 'pending', uploadedAt: IsNull() },
      {
        state: 'failed',
        failureReason: reason.slice(0, 500),
        contentLength: receivedBytes,
        updatedAt: this.clock.now(),
      },
    );
    return (result.affected ?? 0) > 0;
  }

  /** Records what processing found of a media whose bytes are stored: it is ready. */
  async processed(id: string, facts: MediaFacts): Promise<boolean> {
    const result = await this.media.update(
      { id, state: 'pending', uploadedAt: Not(IsNull()) },
      { ...facts, state: 'ready', updatedAt: this.clock.now() },
    );
    return (result.affected ?? 0) > 0;
  }

  /** Processing refused a media whose bytes are stored: it fails, and its space's figure drops them. */
  async processingFailed(id: string, reason: string): Promise<boolean> {
    return this.media.manager.transaction(async (manager) => {
      const result = await manager.update(
        Media,
        { id, state: 'pending', uploadedAt: Not(IsNull()) },
        { state: 'failed', failureReason: reason.slice(0, 500), updatedAt: this.clock.now() },
      );
      if ((result.affected ?? 0) === 0) return false;
      await dropStoredBytesOf(manager, [id]);
      return true;
    });
  }

  async byId(id: string): Promise<Media | null> {
    const rows: MediaRow[] = await this.media.query(MEDIA_BY_ID, [id]);
    return rows.length === 0 ? null : mediaOfRow(rows[0]);
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
    const deleted = await this.media.delete({
      state: 'pending',
      uploadedAt: IsNull(),
      createdAt: LessThan(new Date(now - uploadTtlMs)),
    });
    const failed = await this.media.manager.transaction(async (manager) => {
      // TypeORM answers an UPDATE as [rows, affected].
      const [rows]: [{ id: string; storage_key: string | null; kind: MediaKind }[], number] =
        await manager.query(
          "UPDATE media SET state = 'failed', failure_reason = 'processing did not finish in time', updated_at = $2 " +
            "WHERE state = 'pending' AND uploaded_at < $1 RETURNING id, storage_key, kind",
          [new Date(now - processingTtlMs), new Date(now)],
        );
      await dropStoredBytesOf(
        manager,
        rows.map((row) => row.id),
      );
      return rows.map((row) => ({ id: row.id, storageKey: row.storage_key, kind: row.kind }));
    });
    return { deleted: deleted.affected ?? 0, failed };
  }

  /**
   * Records the stored bytes of a media still awaiting them, `ready` or (probing still to run)
   * `pending`; null when another upload finalized it first.
   */
  async finalize(
    media: Pick<Media, 'id' | 'spaceId'>,
    stored: { storageKey: string; contentLength: number; facts: MediaFacts; ready: boolean },
  ): Promise<Media | null> {
    const now = this.clock.now();
    const finalized = await this.media.manager.transaction(async (manager) => {
      const result = await manager.update(
        Media,
        { id: media.id, state: 'pending', uploadedAt: IsNull() },
        {
          ...stored.facts,
          state: stored.ready ? 'ready' : 'pending',
          storageKey: stored.storageKey,
          contentLength: stored.contentLength,
          uploadedAt: now,
          updatedAt: now,
        },
      );
      if ((result.affected ?? 0) === 0) return false;
      // The space's storage figure moves with the row (docs/decisions/0114-media-upload-quota.md).
      await addStoredBytes(manager, media.spaceId, stored.contentLength);
      return true;
    });
    return finalized ? this.media.findOneByOrFail({ id: media.id }) : null;
  }
}
