import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull, Not } from 'typeorm';
import { defineStatements } from '../infrastructure/database/statements';
import type { MediaKind } from './domain/media-types';
import { Media, MediaState } from './entities/media.entity';

/** Every column of `media`: what a media read selects, mapped by `mediaOfRow`. */
export const MEDIA_COLUMNS =
  'id, space_id, uploader_did, filename, content_type, kind, alt, declared_length, state, failure_reason, ' +
  'storage_key, content_length, width, height, blur_hash, duration_ms, waveform_peaks, poster_key, ' +
  'created_at, updated_at, uploaded_at';

/**
 * What one media counts against its uploader's quota, in bytes: the bytes stored once uploaded,
 * the bytes received before a refusal, else (minted, not uploaded) what it may still bring: its
 * declared `contentLength`, or the most an upload of its kind may be ($3..$6 by kind; $7 'failed').
 */
const QUOTA_CHARGE =
  'CASE WHEN uploaded_at IS NOT NULL OR state = $7 THEN COALESCE(content_length, 0) ' +
  'ELSE COALESCE(declared_length, CASE kind ' +
  "WHEN 'image' THEN $3::bigint WHEN 'audio' THEN $4::bigint WHEN 'video' THEN $5::bigint ELSE $6::bigint END) END";

/** The uploader's media of the last 24 hours (`idx_media_uploader`: uploader, created_at). */
const QUOTA_WINDOW = 'FROM media WHERE uploader_did = $1 AND created_at > $2';

/**
 * The media module's fixed SQL (docs/decisions/0131-a-repository-per-module.md), on its own tables
 * `media` and `media_space_usage`.
 */
export const MEDIA_STATEMENTS = defineStatements('MediaRepository', {
  /**
   * One media row by id ($1), mapped explicitly: the image route serves a cached variant in a
   * fraction of a millisecond, and TypeORM's findOneBy (query building, hydration) was a tenth of it.
   */
  byId: `SELECT ${MEDIA_COLUMNS} FROM media WHERE id = $1`,
  /**
   * A page of an uploader's ($1) ready media for their export, oldest first on `idx_media_uploader`
   * ($2 rows; `after`: $3, $4 the last (created_at, id); docs/decisions/0210-personal-export-archive-layout.md).
   */
  exportPage: {
    first: `SELECT ${MEDIA_COLUMNS} FROM media WHERE uploader_did = $1 AND state = 'ready' ORDER BY created_at, id LIMIT $2`,
    after: `SELECT ${MEDIA_COLUMNS} FROM media WHERE uploader_did = $1 AND state = 'ready'
      AND (created_at, id) > ($3::timestamptz, $4::uuid) ORDER BY created_at, id LIMIT $2`,
  },
  /**
   * A page of a space's ($1) ready files for its export ($2 rows; `after`: $3, $4 the last
   * (created_at, id)), on `idx_media_space_ready` (docs/decisions/0217-space-export-media.md).
   */
  exportPageOfSpace: {
    first: `SELECT ${MEDIA_COLUMNS} FROM media WHERE space_id = $1 AND state = 'ready' ORDER BY created_at, id LIMIT $2`,
    after: `SELECT ${MEDIA_COLUMNS} FROM media WHERE space_id = $1 AND state = 'ready'
      AND (created_at, id) > ($3::timestamptz, $4::uuid) ORDER BY created_at, id LIMIT $2`,
  },
  /** The media of many ids ($1 uuid[]) in one statement, whatever their state. */
  byIds: `SELECT ${MEDIA_COLUMNS} FROM media WHERE id = ANY($1::uuid[])`,
  /** The `ready` media of many ids ($1 uuid[]) in one statement. */
  readyByIds: `SELECT ${MEDIA_COLUMNS} FROM media WHERE id = ANY($1::uuid[]) AND state = 'ready'`,
  /** Ready uploads of a space ($1), plus those of the ids it also shows ($2 uuid[]). */
  readyCountOfSpace:
    "SELECT count(*)::int AS n FROM media WHERE state = 'ready' AND (space_id = $1 OR id = ANY($2::uuid[]))",
  /** A space's storage figure ($1). */
  storedBytesOfSpace: 'SELECT stored_bytes FROM media_space_usage WHERE space_id = $1',
  /** A space's ($1) uploads gained $2 bytes. */
  addStoredBytes:
    'INSERT INTO media_space_usage (space_id, stored_bytes) VALUES ($1, $2) ' +
    'ON CONFLICT (space_id) DO UPDATE SET stored_bytes = media_space_usage.stored_bytes + EXCLUDED.stored_bytes',
  /** The spaces of these media ($1 uuid[]) lose their stored bytes. */
  dropStoredBytesOf:
    'UPDATE media_space_usage SET stored_bytes = media_space_usage.stored_bytes - dropped.bytes ' +
    'FROM (SELECT space_id, SUM(content_length) AS bytes FROM media ' +
    'WHERE id = ANY($1::uuid[]) AND space_id IS NOT NULL AND content_length IS NOT NULL GROUP BY space_id) dropped ' +
    'WHERE media_space_usage.space_id = dropped.space_id',
  /** Media minted before $1 and never uploaded (`idx_media_pending`). */
  deleteNeverUploaded:
    "DELETE FROM media WHERE state = 'pending' AND uploaded_at IS NULL AND created_at < $1",
  /**
   * Imported images ($1 uuid[]) no longer used by the module that imported them: only rows with no
   * space whose uploader is a service (`plat:`), never a member's upload. Their storage keys answered.
   */
  deleteImported:
    "DELETE FROM media WHERE id = ANY($1::uuid[]) AND space_id IS NULL AND uploader_did LIKE 'plat:%' RETURNING id, storage_key",
  /** Media uploaded before $1 whose processing never finished fail (at $2). */
  failUnprocessed:
    "UPDATE media SET state = 'failed', failure_reason = 'processing did not finish in time', updated_at = $2 " +
    "WHERE state = 'pending' AND uploaded_at < $1 RETURNING id, storage_key, kind",
  /** Erasure (docs/decisions/0192-an-erasure-takes-the-persons-media-and-invites.md). */
  erasure: {
    /** Every media uploaded by $1, locked for the erasure's transaction (`idx_media_uploader`). */
    uploadsOf: 'SELECT id FROM media WHERE uploader_did = $1 ORDER BY id FOR UPDATE',
    /** Deletes these media ($1 uuid[]); their ids and stored keys, for the files' deletion after commit. */
    deleteUploads: 'DELETE FROM media WHERE id = ANY($1::uuid[]) RETURNING id, storage_key, poster_key',
    /** The kept media ($1 uuid[]) no longer name their uploader ($2: the erased placeholder). */
    forgetUploader: 'UPDATE media SET uploader_did = $2 WHERE id = ANY($1::uuid[])',
  },
  /** The per-identity upload quota (docs/decisions/0114-media-upload-quota.md). */
  quota: {
    /** One mint per uploader at a time ($1: the uploader's lock name), until the transaction ends. */
    lockUploader: 'SELECT pg_advisory_xact_lock(hashtext($1))',
    /** Bytes the uploader's ($1) media since $2 count ($3..$7: QUOTA_CHARGE). */
    used: `SELECT COALESCE(SUM(${QUOTA_CHARGE}), 0) AS used ${QUOTA_WINDOW}`,
    /**
     * The oldest media of the window whose leaving frees enough for a new charge ($8 used, $9 the
     * charge, $10 the quota).
     */
    freedBy:
      `SELECT created_at FROM (SELECT created_at, SUM(${QUOTA_CHARGE}) OVER (ORDER BY created_at, id) AS freed ${QUOTA_WINDOW}) oldest ` +
      'WHERE $8::bigint - freed + $9::bigint <= $10::bigint ORDER BY created_at LIMIT 1',
  },
});

/** A `media` row as node-postgres returns it. */
interface MediaRow {
  id: string;
  space_id: string | null;
  uploader_did: string;
  filename: string;
  content_type: string;
  kind: MediaKind;
  alt: string | null;
  /** bigint columns: node-postgres gives them as strings. */
  declared_length: string | null;
  state: MediaState;
  failure_reason: string | null;
  storage_key: string | null;
  content_length: string | null;
  width: number | null;
  height: number | null;
  blur_hash: string | null;
  duration_ms: number | null;
  waveform_peaks: number[] | null;
  poster_key: string | null;
  created_at: Date;
  updated_at: Date;
  uploaded_at: Date | null;
}

const numberOrNull = (value: string | null) => (value === null ? null : Number(value));

function mediaOfRow(row: MediaRow): Media {
  const media = new Media();
  media.id = row.id;
  media.spaceId = row.space_id;
  media.uploaderDid = row.uploader_did;
  media.filename = row.filename;
  media.contentType = row.content_type;
  media.kind = row.kind;
  media.alt = row.alt;
  media.declaredLength = numberOrNull(row.declared_length);
  media.state = row.state;
  media.failureReason = row.failure_reason;
  media.storageKey = row.storage_key;
  media.contentLength = numberOrNull(row.content_length);
  media.width = row.width;
  media.height = row.height;
  media.blurHash = row.blur_hash;
  media.durationMs = row.duration_ms;
  media.waveformPeaks = row.waveform_peaks;
  media.posterKey = row.poster_key;
  media.createdAt = row.created_at;
  media.updatedAt = row.updated_at;
  media.uploadedAt = row.uploaded_at;
  return media;
}

/** What probing found; stored with the bytes when the upload is finalized. */
export type MediaFacts = Partial<
  Pick<Media, 'width' | 'height' | 'blurHash' | 'durationMs' | 'waveformPeaks' | 'posterKey'>
>;

/** The bytes of an upload as stored. */
export interface StoredBytes {
  storageKey: string;
  contentLength: number;
  facts: MediaFacts;
  /** `ready` now, or `pending` while its processing is still to run. */
  ready: boolean;
}

/**
 * Every statement on `media` and `media_space_usage`: fixed SQL for reads of many rows, the sweep,
 * the quota and the storage figure; TypeORM's repository API for one media by its id. Methods
 * that write take the runner of the caller's transaction last.
 */
@Injectable()
export class MediaRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A new media, not yet saved. */
  create(fields: Partial<Media>): Media {
    return this.dataSource.getRepository(Media).create(fields);
  }

  /** Saves a new media. */
  insert(media: Media, runner: EntityManager = this.dataSource.manager): Promise<Media> {
    return runner.save(media);
  }

  /** A page of `uploaderDid`'s ready media, by (created_at, id) after `after`. */
  async exportPage(
    uploaderDid: string,
    after: [string, string] | null,
    limit: number,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<Media[]> {
    const { exportPage } = MEDIA_STATEMENTS;
    const rows = after
      ? await runner.query<MediaRow[]>(exportPage.after, [uploaderDid, limit, after[0], after[1]])
      : await runner.query<MediaRow[]>(exportPage.first, [uploaderDid, limit]);
    return rows.map(mediaOfRow);
  }

  async exportPageOfSpace(
    spaceId: string,
    after: [string, string] | null,
    limit: number,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<Media[]> {
    const { exportPageOfSpace } = MEDIA_STATEMENTS;
    const rows = after
      ? await runner.query<MediaRow[]>(exportPageOfSpace.after, [spaceId, limit, after[0], after[1]])
      : await runner.query<MediaRow[]>(exportPageOfSpace.first, [spaceId, limit]);
    return rows.map(mediaOfRow);
  }

  async byId(id: string): Promise<Media | null> {
    const rows = await this.dataSource.query<MediaRow[]>(MEDIA_STATEMENTS.byId, [id]);
    return rows.length === 0 ? null : mediaOfRow(rows[0]);
  }

  /** The media of these ids (any state), in one statement; none for no ids. */
  async byIds(ids: string[]): Promise<Media[]> {
    if (ids.length === 0) return [];
    const rows = await this.dataSource.query<MediaRow[]>(MEDIA_STATEMENTS.byIds, [ids]);
    return rows.map(mediaOfRow);
  }

  /** The `ready` media of these ids, in one statement; none for no ids. */
  async readyByIds(ids: string[], runner: EntityManager = this.dataSource.manager): Promise<Media[]> {
    if (ids.length === 0) return [];
    const rows = await runner.query<MediaRow[]>(MEDIA_STATEMENTS.readyByIds, [ids]);
    return rows.map(mediaOfRow);
  }

  /** One media of an uploader, of one space (`spaceId` null: a legacy upload), or null. */
  owned(id: string, uploaderDid: string, spaceId: string | null): Promise<Media | null> {
    return this.dataSource.getRepository(Media).findOneBy({ id, uploaderDid, spaceId: spaceId ?? IsNull() });
  }

  /** The media after a write, which must exist. */
  saved(id: string): Promise<Media> {
    return this.dataSource.getRepository(Media).findOneByOrFail({ id });
  }

  /** Fails a media still awaiting its bytes; false when it is not (any more). */
  async failAwaitingBytes(
    id: string,
    change: { failureReason: string; contentLength: number; updatedAt: Date },
  ): Promise<boolean> {
    const result = await this.dataSource
      .getRepository(Media)
      .update({ id, state: 'pending', uploadedAt: IsNull() }, { state: 'failed', ...change });
    return (result.affected ?? 0) > 0;
  }

  /** Stores the bytes of a media still awaiting them; false when another upload did first. */
  async storeBytes(id: string, stored: StoredBytes, now: Date, runner: EntityManager): Promise<boolean> {
    const result = await runner.update(
      Media,
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
    return (result.affected ?? 0) > 0;
  }

  /** A media whose bytes are stored and still pending becomes ready with `facts`; false otherwise. */
  async markProcessed(id: string, facts: MediaFacts, now: Date): Promise<boolean> {
    const result = await this.dataSource
      .getRepository(Media)
      .update(
        { id, state: 'pending', uploadedAt: Not(IsNull()) },
        { ...facts, state: 'ready', updatedAt: now },
      );
    return (result.affected ?? 0) > 0;
  }

  /** A media whose bytes are stored and still pending fails; false otherwise. */
  async failStored(id: string, failureReason: string, now: Date, runner: EntityManager): Promise<boolean> {
    const result = await runner.update(
      Media,
      { id, state: 'pending', uploadedAt: Not(IsNull()) },
      { state: 'failed', failureReason, updatedAt: now },
    );
    return (result.affected ?? 0) > 0;
  }

  /** Deletes the media minted before `before` and never uploaded; how many. */
  async deleteNeverUploaded(before: Date): Promise<number> {
    // TypeORM answers a DELETE as [rows, affected].
    const [, affected] = await this.dataSource.query<[unknown[], number]>(
      MEDIA_STATEMENTS.deleteNeverUploaded,
      [before],
    );
    return affected ?? 0;
  }

  /** Deletes these imported images (no space, a service's); their ids and storage keys. */
  async deleteImported(ids: readonly string[]): Promise<{ id: string; storageKey: string | null }[]> {
    if (ids.length === 0) return [];
    // TypeORM answers a DELETE ... RETURNING as [rows, affected].
    const [rows] = await this.dataSource.query<[{ id: string; storage_key: string | null }[], number]>(
      MEDIA_STATEMENTS.deleteImported,
      [ids],
    );
    return rows.map((row) => ({ id: row.id, storageKey: row.storage_key }));
  }

  /** Fails the media uploaded before `before` whose processing never finished; they are answered. */
  async failUnprocessed(
    before: Date,
    now: Date,
    runner: EntityManager,
  ): Promise<Pick<Media, 'id' | 'storageKey' | 'kind'>[]> {
    // TypeORM answers an UPDATE as [rows, affected].
    const [rows] = await runner.query<
      [{ id: string; storage_key: string | null; kind: MediaKind }[], number]
    >(MEDIA_STATEMENTS.failUnprocessed, [before, now]);
    return rows.map((row) => ({ id: row.id, storageKey: row.storage_key, kind: row.kind }));
  }

  /**
   * How many uploads of a space are ready, plus those of `alsoShown` (images it shows that were
   * uploaded elsewhere).
   */
  async readyCountOfSpace(spaceId: string, alsoShown: string[]): Promise<number> {
    const [{ n }] = await this.dataSource.query<{ n: number }[]>(MEDIA_STATEMENTS.readyCountOfSpace, [
      spaceId,
      alsoShown,
    ]);
    return n;
  }

  /** A space's storage figure (docs/decisions/0114-media-upload-quota.md); 0 without a row. */
  async storedBytesOfSpace(spaceId: string): Promise<number> {
    const rows = await this.dataSource.query<{ stored_bytes: string }[]>(
      MEDIA_STATEMENTS.storedBytesOfSpace,
      [spaceId],
    );
    return rows.length === 0 ? 0 : Number(rows[0].stored_bytes);
  }

  /**
   * A space's uploads gained `bytes` (an upload's bytes were stored), on the transaction of that
   * write, so the figure and the rows never disagree; legacy uploads have no space.
   */
  async addStoredBytes(spaceId: string | null, bytes: number, runner: EntityManager): Promise<void> {
    if (spaceId === null || bytes === 0) return;
    await runner.query(MEDIA_STATEMENTS.addStoredBytes, [spaceId, bytes]);
  }

  /** The spaces of these media lose their stored bytes (the media failed after their bytes were stored). */
  async dropStoredBytesOf(mediaIds: string[], runner: EntityManager): Promise<void> {
    if (mediaIds.length === 0) return;
    await runner.query(MEDIA_STATEMENTS.dropStoredBytesOf, [mediaIds]);
  }

  /** Holds the quota lock of one uploader until the runner's transaction ends. */
  async lockUploaderQuota(uploaderDid: string, runner: EntityManager): Promise<void> {
    await runner.query(MEDIA_STATEMENTS.quota.lockUploader, [`media-upload-quota:${uploaderDid}`]);
  }

  /** Bytes the window's media count ($1..$7 of MEDIA_STATEMENTS.quota.used). */
  async quotaUsed(window: unknown[], runner: EntityManager): Promise<number> {
    const [{ used }] = await runner.query<{ used: string }[]>(MEDIA_STATEMENTS.quota.used, window);
    return Number(used);
  }

  /** When the oldest media whose leaving frees `charge` was made, or undefined. */
  async quotaFreedAt(
    window: unknown[],
    used: number,
    charge: number,
    quota: number,
    runner: EntityManager,
  ): Promise<Date | undefined> {
    const [first] = await runner.query<{ created_at: Date }[]>(MEDIA_STATEMENTS.quota.freedBy, [
      ...window,
      used,
      charge,
      quota,
    ]);
    return first?.created_at;
  }

  /** Every media uploaded by `did`, locked in the runner's transaction. */
  async uploadsOf(did: string, runner: EntityManager): Promise<string[]> {
    const rows = await runner.query<{ id: string }[]>(MEDIA_STATEMENTS.erasure.uploadsOf, [did]);
    return rows.map((row) => row.id);
  }

  /** Deletes these media; their ids and stored keys (original and poster). */
  async deleteUploads(ids: string[], runner: EntityManager): Promise<{ id: string; keys: string[] }[]> {
    if (ids.length === 0) return [];
    // TypeORM answers a DELETE ... RETURNING as [rows, affected].
    const [rows] = await runner.query<
      [{ id: string; storage_key: string | null; poster_key: string | null }[], number]
    >(MEDIA_STATEMENTS.erasure.deleteUploads, [ids]);
    return rows.map((row) => ({
      id: row.id,
      keys: [row.storage_key, row.poster_key].filter((key): key is string => key !== null),
    }));
  }

  /** The kept media of an erased person name `placeholder` as their uploader. */
  async forgetUploader(ids: string[], placeholder: string, runner: EntityManager): Promise<void> {
    if (ids.length === 0) return;
    await runner.query(MEDIA_STATEMENTS.erasure.forgetUploader, [ids, placeholder]);
  }
}
