import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

declare module '../../common/ids/entity-id' {
  interface EntityPrefixes {
    /** `import_<32 hex>` on the wire. */
    import: true;
  }
}

/** Where an import stands (docs/decisions/0221-space-import-a-durable-job-through-the-owning-modules.md). */
export type SpaceImportState = 'queued' | 'running' | 'done' | 'failed';

/**
 * One import of a space's archive (issue 35 item 5): asked for by the person who becomes the new
 * space's owner, run by the `imports.run` job. The archive is kept only until it settles
 * (a done import's, until its chains are announced: docs/decisions/0236).
 */
@Entity({ name: 'imports' })
@Index('idx_imports_owner', ['ownerDid', 'id'])
export class SpaceImport {
  /** A UUIDv7 (`newUuid()`). */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  /** Who asked, and who owns the new space. */
  @Column({ name: 'owner_did', type: 'varchar', length: 64 })
  ownerDid: string;

  @Column({ type: 'varchar', length: 8 })
  state: SpaceImportState;

  /**
   * The uploaded archive's key in the media store (`imports/…`, capped by IMPORT_MAX_ARCHIVE_BYTES);
   * null once the import settled (done: once announced). docs/decisions/0237-a-space-import-streams-its-archive-through-the-store.md
   */
  @Column({ name: 'archive_key', type: 'varchar', length: 200, nullable: true })
  archiveKey: string | null;

  /** The new space, set as soon as it is created (a retry removes a half-written one first). */
  @Column({ name: 'space_id', type: 'uuid', nullable: true })
  spaceId: string | null;

  /** Why the import failed, as shown to its owner (it names only what the archive holds). */
  @Column({ name: 'failure_reason', type: 'varchar', length: 500, nullable: true })
  failureReason: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', precision: 3, nullable: true })
  finishedAt: Date | null;
}
