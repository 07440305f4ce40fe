import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, LessThan, Not, Repository } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { newUuid, parseEntityId } from '../common/ids/entity-id';
import { Media } from './entities/media.entity';
import { MEDIA_BY_ID, mediaOfRow, MediaRow } from './media-row-sql';
import { MEDIA_TYPES } from './media-types';

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

  async mint(fields: NewMedia): Promise<Media> {
    const now = this.clock.now();
    const row = this.media.create({
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
    return this.media.save(row);
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

  /** Refuses the bytes of a media still awaiting them; false when it is not (any more). */
  async fail(id: string, reason: string): Promise<boolean> {
    const result = await this.media.update(
      { id, state: 'pending', uploadedAt: IsNull() },
      { state: 'failed', failureReason: reason.slice(0, 500), updatedAt: this.clock.now() },
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

  /** Processing refused a media whose bytes are stored: it fails. */
  async processingFailed(id: string, reason: string): Promise<boolean> {
    const result = await this.media.update(
      { id, state: 'pending', uploadedAt: Not(IsNull()) },
      { state: 'failed', failureReason: reason.slice(0, 500), updatedAt: this.clock.now() },
    );
    return (result.affected ?? 0) > 0;
  }

  async byId(id: string): Promise<Media | null> {
    const rows: MediaRow[] = await this.media.query(MEDIA_BY_ID, [id]);
    return rows.length === 0 ? null : mediaOfRow(rows[0]);
  }

  /**
   * The sweep (design.md §11): media never uploaded within `uploadTtlMs` are deleted (their URL
   * has expired); media whose processing has not finished within `processingTtlMs` of their
   * upload fail. Answers how many of each.
   */
  async sweep(uploadTtlMs: number, processingTtlMs: number): Promise<{ deleted: number; failed: number }> {
    const now = this.clock.now().getTime();
    const deleted = await this.media.delete({
      state: 'pending',
      uploadedAt: IsNull(),
      createdAt: LessThan(new Date(now - uploadTtlMs)),
    });
    const failed = await this.media.update(
      { state: 'pending', uploadedAt: LessThan(new Date(now - processingTtlMs)) },
      { state: 'failed', failureReason: 'processing did not finish in time', updatedAt: new Date(now) },
    );
    return { deleted: deleted.affected ?? 0, failed: failed.affected ?? 0 };
  }

  /**
   * Records the stored bytes of a media still awaiting them, `ready` or (probing still to run)
   * `pending`; null when another upload finalized it first.
   */
  async finalize(
    id: string,
    stored: { storageKey: string; contentLength: number; facts: MediaFacts; ready: boolean },
  ): Promise<Media | null> {
    const now = this.clock.now();
    const result = await this.media.update(
      { id, state: 'pending', uploadedAt: IsNull() },
      {
        ...stored.facts,
        state: stored.ready ? 'ready' : 'pending',
        storageKey: stored.storageKey,
        contentLength: stored.contentLength,
        uploadedAt: now,
        updatedAt: now,
      },
    );
    return (result.affected ?? 0) > 0 ? this.media.findOneByOrFail({ id }) : null;
  }
}
