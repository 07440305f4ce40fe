import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { newUuid } from '../../common/ids/entity-id';
import { ApiError } from '../../common/errors/api-error';
import { AppConfig } from '../../config/app-config';
import { Media } from '../entities/media.entity';
import { MediaRepository } from '../media.repository';
import { MediaKind, MEDIA_TYPES } from '../domain/media-types';
import { uploadLimit } from '../domain/upload-limits';

const DAY_MS = 24 * 3600 * 1000;

/** A media to mint. */
export interface NewMedia {
  spaceId: string | null;
  uploaderDid: string;
  filename: string;
  contentType: string;
  declaredLength?: number | null;
  alt?: string | null;
}

/** The `scope` of a 429 past the quota (api-spec.md: the scope values are an open set). */
export const UPLOAD_QUOTA_SCOPE = 'upload-quota';

/**
 * The per-identity upload quota (MEDIA_UPLOAD_QUOTA_BYTES_PER_DAY;
 * docs/decisions/0114-media-upload-quota.md): over any 24 hours, the bytes an identity's media count
 * (MEDIA_STATEMENTS.quota) stay within the quota. It is checked at the mint, where a new media counts what it may
 * bring, under a lock per uploader so concurrent mints cannot both take the last bytes; an upload
 * never brings more than it counted (its limit is the same number). Past the quota the mint is a
 * 429 in design.md §5's envelope, scope `upload-quota`, and nothing is stored.
 */
@Injectable()
export class UploadQuotaService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: MediaRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** The most one upload of `kind` may bring: its kind's limit, never more than the whole quota. */
  uploadLimit(kind: MediaKind): number {
    return uploadLimit(kind, this.config);
  }

  /** Saves a new pending media if what it may bring fits its uploader's quota; else the 429. */
  async mint(fields: NewMedia): Promise<Media> {
    const quota = this.config.MEDIA_UPLOAD_QUOTA_BYTES_PER_DAY;
    const charge = fields.declaredLength ?? this.uploadLimit(MEDIA_TYPES[fields.contentType].kind);
    return this.dataSource.transaction(async (manager) => {
      // One mint per uploader at a time: the sum below must include a concurrent mint's row.
      await this.repository.lockUploaderQuota(fields.uploaderDid, manager);
      const now = this.clock.now();
      const parameters = this.windowParameters(fields.uploaderDid, now);
      const used = await this.repository.quotaUsed(parameters, manager);
      if (used + charge > quota) {
        throw await this.exceeded(manager, parameters, used, charge, now);
      }
      return this.repository.insert(this.pending(fields), manager);
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
    const freedAt = await this.repository.quotaFreedAt(parameters, used, charge, quota, manager);
    const retryAfterMs = Math.max(1, (freedAt?.getTime() ?? now.getTime()) + DAY_MS - now.getTime());
    return new ApiError(
      HttpStatus.TOO_MANY_REQUESTS,
      `Upload quota reached: at most ${quota} bytes in 24 hours`,
      { scope: UPLOAD_QUOTA_SCOPE, retryAfterMs },
      { 'Retry-After': String(Math.ceil(retryAfterMs / 1000)) },
    );
  }

  /** A new pending media, not yet saved. */
  private pending(fields: NewMedia): Media {
    const now = this.clock.now();
    return this.repository.create({
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
