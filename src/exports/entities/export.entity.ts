import { Column, Entity, Index, PrimaryColumn, ValueTransformer } from 'typeorm';

declare module '../../common/ids/entity-id' {
  interface EntityPrefixes {
    /** `export_<32 hex>` on the wire. */
    export: true;
  }
}

/** Where an export (personal or a space's) stands (docs/decisions/0212-one-export-at-a-time-built-by-a-durable-job.md). */
export type ExportState = 'queued' | 'running' | 'ready' | 'failed' | 'expired';

/** bigint columns come back from pg as strings; sizes fit a JS number (< 2^53). */
const bigintNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};

/**
 * One personal export (issue 35 item 3): asked for by its owner, built by the `exports.build` job
 * into one zip archive in the media store (`archive_key`, set only once the whole archive is
 * stored), downloadable by signed URL until `expires_at`, then swept.
 */
@Entity({ name: 'exports' })
@Index('idx_exports_owner', ['ownerDid', 'id'])
// One export at a time per person, whatever races: a second queued or running row is refused by
// the index (docs/decisions/0212-one-export-at-a-time-built-by-a-durable-job.md).
@Index('uq_exports_owner_in_progress', ['ownerDid'], {
  unique: true,
  where: `"state" IN ('queued', 'running') AND "space_id" IS NULL`,
})
// One export at a time per space (docs/decisions/0215-space-exports-share-the-personal-machinery.md).
@Index('uq_exports_space_in_progress', ['spaceId'], {
  unique: true,
  where: `"state" IN ('queued', 'running') AND "space_id" IS NOT NULL`,
})
@Index('idx_exports_space', ['spaceId', 'id'], { where: '"space_id" IS NOT NULL' })
// The expiry sweep reads the ready archives whose time is over.
@Index('idx_exports_expiring', ['expiresAt'], { where: `"state" = 'ready'` })
export class Export {
  /** A UUIDv7 (`newUuid()`): time-ordered, so listings page by it. */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  /** Whose data it is; for a space export, the owner who asked for it. */
  @Column({ name: 'owner_did', type: 'varchar', length: 64 })
  ownerDid: string;

  /** The space of a space export (issue 35 item 4); null for a personal export. */
  @Column({ name: 'space_id', type: 'uuid', nullable: true })
  spaceId: string | null;

  @Column({ type: 'varchar', length: 8 })
  state: ExportState;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;

  /** When the archive was stored (ready) or the build gave up (failed). */
  @Column({ name: 'finished_at', type: 'timestamptz', precision: 3, nullable: true })
  finishedAt: Date | null;

  /** When the archive is swept: EXPORT_RETENTION_DAYS after it was ready. */
  @Column({ name: 'expires_at', type: 'timestamptz', precision: 3, nullable: true })
  expiresAt: Date | null;

  /** The archive in the media store (MediaExportService), only while ready. */
  @Column({ name: 'archive_key', type: 'varchar', length: 200, nullable: true })
  archiveKey: string | null;

  @Column({ name: 'size_bytes', type: 'bigint', nullable: true, transformer: bigintNumber })
  sizeBytes: number | null;

  /** Why the build failed (logged and kept; never shown). */
  @Column({ name: 'failure_reason', type: 'varchar', length: 500, nullable: true })
  failureReason: string | null;
}
