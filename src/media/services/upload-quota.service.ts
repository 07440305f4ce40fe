import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { ApiError } from '../../common/errors/api-error';
import { AppConfig } from '../../config/app-config';
import { Media } from '../entities/media.entity';
import { MediaRows, NewMedia } from '../media-rows';
import { MediaKind, MEDIA_TYPES } from '../domain/media-types';

const DAY_MS = 24 * 3600 * 1000;

/** The `scope` of a 429 past the quota (api-spec.md: the scope values are an open set). */
export const UPLOAD_QUOTA_SCOPE = 'upload-quota';

/**
 * What one media counts against its uploader's quota, in bytes: the bytes stored once uploaded,
 * the bytes received before a refusal, else (minted, not uploaded) what it may still bring: its
 * declared `contentLength`, or the most an upload of its kind may be ($3..$6 by kind).
 */
const CHARGE =
  'CASE WHEN uploaded_at IS NOT NULL OR state = $7 THEN COALESCE(content_length, 0) ' +
  'ELSE COALESCE(declared_length, CASE kind ' +
  "WHEN 'image' THEN $3::bigint WHEN 'audio' THEN $4::bigint WHEN 'video' THEN $5::bigint ELSE $6::bigint END) END";

/** The uploader's media of the last 24 hours (`idx_media_uploader`: uploader, created_at). */
const WINDOW = 'FROM media WHERE uploader_did = $1 AND created_at > $2';

/**
 * The per-identity upload quota (MEDIA_UPLOAD_QUOTA_BYTES_PER_DAY;
 * docs/decisions/0114-media-upload-quota.md): over any 24 hours, the bytes an identity's media count
 * (CHARGE) stay within the quota. It is checked at the mint, where a new media counts what it may
 * bring, under a lock per uploader so concurrent mints cannot both take the last bytes; an upload
 * never brings more than it counted (its limit is the same number). Past the quota the mint is a
 * 429 in design.md §5's envelope, scope `upload-quota`, and nothing is stored.
 */
@Injectable()
export class UploadQuotaService {
  constructor(
    @InjectRepository(Media) private readonly media: Repository<Media>,
    private readonly rows: MediaRows,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** The most one upload of `kind` may bring: its kind's limit, never more than the whole quota. */
  uploadLimit(kind: MediaKind): number {
    return Math.min(this.maxBytes(kind), this.config.MEDIA_UPLOAD_QUOTA_BYTES_PER_DAY);
  }

  /** The largest upload of each kind (design.md §11 "Kinds and limits", MEDIA_MAX_*_BYTES). */
  private maxBytes(kind: MediaKind): number {
    switch (kind) {
      case 'image':
        return this.config.MEDIA_MAX_IMAGE_BYTES;
      case 'audio':
        return this.config.MEDIA_MAX_AUDIO_BYTES;
      case 'video':
        return this.config.MEDIA_MAX_VIDEO_BYTES;
      case 'file':
        return this.config.MEDIA_MAX_FILE_BYTES;
    }
  }

  /** Saves a new pending media if what it may bring fits its uploader's quota; else the 429. */
  async mint(fields: NewMedia): Promise<Media> {
    const quota = this.config.MEDIA_UPLOAD_QUOTA_BYTES_PER_DAY;
    const charge = fields.declaredLength ?? this.uploadLimit(MEDIA_TYPES[fields.contentType].kind);
    return this.media.manager.transaction(async (manager) => {
      // One mint per uploader at a time: the sum below must include a concurrent mint's row.
      await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
        `media-upload-quota:${fields.uploaderDid}`,
      ]);
      const now = this.clock.now();
      const parameters = this.windowParameters(fields.uploaderDid, now);
      const [{ used }]: { used: string }[] = await manager.query(
        `SELECT COALESCE(SUM(${CHARGE}), 0) AS used ${WINDOW}`,
        parameters,
      );
      if (Number(used) + charge > quota) {
        throw await this.exceeded(manager, parameters, Number(used), charge, now);
      }
      return manager.save(this.rows.newRow(fields));
    });
  }

  /** The 429, with the time until enough of the window's oldest media leave it for this one. */
  private async exceeded(
    manager: EntityManager,
    parameters: unknown[],
    used: number,
    charge: number,
    now: Date,
  ): Promise<ApiError> {
    const quota = this.config.MEDIA_UPLOAD_QUOTA_BYTES_PER_DAY;
    const [first]: { created_at: Date }[] = await manager.query(
      `SELECT created_at FROM (SELECT created_at, SUM(${CHARGE}) OVER (ORDER BY created_at, id) AS freed ${WINDOW}) oldest ` +
        'WHERE $8::bigint - freed + $9::bigint <= $10::bigint ORDER BY created_at LIMIT 1',
      [...parameters, used, charge, quota],
    );
    const retryAfterMs = Math.max(1, (first?.created_at.getTime() ?? now.getTime()) + DAY_MS - now.getTime());
    return new ApiError(
      HttpStatus.TOO_MANY_REQUESTS,
      `Upload quota reached: at most ${quota} bytes in 24 hours`,
      { scope: UPLOAD_QUOTA_SCOPE, retryAfterMs },
      { 'Retry-After': String(Math.ceil(retryAfterMs / 1000)) },
    );
  }

  private windowParameters(uploaderDid: string, now: Date): unknown[] {
    return [
      uploaderDid,
      new Date(now.getTime() - DAY_MS),
      this.uploadLimit('image'),
      this.uploadLimit('audio'),
      this.uploadLimit('video'),
      this.uploadLimit('file'),
      'failed',
    ];
  }
}
