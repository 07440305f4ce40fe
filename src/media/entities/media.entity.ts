import { Column, Entity, ForeignKey, Index, PrimaryColumn, ValueTransformer } from 'typeorm';
import type { MediaKind } from '../domain/media-types';

export type MediaState = 'pending' | 'ready' | 'failed';

/** bigint columns come back from pg as strings; sizes fit a JS number (< 2^53). */
const bigintNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};

/**
 * One upload (design.md §11): minted `pending`, `ready` once its bytes are stored and probed, or
 * `failed` when the bytes were refused. It belongs to its uploader and, for v1 uploads, to one
 * space (`space_id` null: a legacy upload, POST /media). Its bytes live in `MediaStorage` under
 * `storage_key`, never in the database.
 */
@Entity({ name: 'media' })
@Index('idx_media_uploader', ['uploaderDid', 'createdAt'])
@Index('idx_media_pending', ['createdAt'], { where: `"state" = 'pending'` })
@Index('idx_media_space', ['spaceId', 'state'])
// A space's export reads its ready files in order (docs/decisions/0217-space-export-media.md).
@Index('idx_media_space_ready', ['spaceId', 'createdAt', 'id'], { where: `"state" = 'ready'` })
export class Media {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  // Foreign keys name the spaces module's tables only: no relation to its entities.
  @Column({ name: 'space_id', type: 'uuid', nullable: true })
  @ForeignKey('spaces', { onDelete: 'CASCADE' })
  spaceId: string | null;

  @Column({ name: 'uploader_did', type: 'varchar', length: 64 })
  uploaderDid: string;

  @Column({ type: 'varchar', length: 255 })
  filename: string;

  /** The declared type, lower case without parameters: one of MEDIA_TYPES. */
  @Column({ name: 'content_type', type: 'varchar', length: 100 })
  contentType: string;

  @Column({ type: 'varchar', length: 8 })
  kind: MediaKind;

  @Column({ type: 'text', nullable: true })
  alt: string | null;

  /** The `contentLength` declared at mint: the upload must be exactly this long. */
  @Column({ name: 'declared_length', type: 'bigint', nullable: true, transformer: bigintNumber })
  declaredLength: number | null;

  @Column({ type: 'varchar', length: 8 })
  state: MediaState;

  /** Why the bytes were refused (logged and kept; never shown). */
  @Column({ name: 'failure_reason', type: 'varchar', length: 500, nullable: true })
  failureReason: string | null;

  @Column({ name: 'storage_key', type: 'varchar', length: 200, nullable: true })
  storageKey: string | null;

  /** Bytes stored; set when the upload is finalized. */
  @Column({ name: 'content_length', type: 'bigint', nullable: true, transformer: bigintNumber })
  contentLength: number | null;

  @Column({ type: 'integer', nullable: true })
  width: number | null;

  @Column({ type: 'integer', nullable: true })
  height: number | null;

  @Column({ name: 'blur_hash', type: 'varchar', length: 100, nullable: true })
  blurHash: string | null;

  @Column({ name: 'duration_ms', type: 'integer', nullable: true })
  durationMs: number | null;

  /** At most 200 integers 0..100 (audio). */
  @Column({ name: 'waveform_peaks', type: 'jsonb', nullable: true })
  waveformPeaks: number[] | null;

  /** A poster image in storage: a video frame or an audio file's cover art. */
  @Column({ name: 'poster_key', type: 'varchar', length: 200, nullable: true })
  posterKey: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;

  /** When the bytes were stored (a second upload is refused from then on). */
  @Column({ name: 'uploaded_at', type: 'timestamptz', precision: 3, nullable: true })
  uploadedAt: Date | null;
}
