import {
  Column,
  CreateDateColumn,
  Entity,
  ForeignKey,
  Index,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';

/** A credit of a release as stored: `did` when the person has one on the protocol. */
export interface StoredCredit {
  name: string;
  role: string;
  did: string | null;
}

/**
 * A release of a space (design.md §13): a published work listing products. Deleting sets
 * `deletedAt` (the slug is unique only among live rows). `publishedAt` is set the first time it is
 * published and kept through later unpublishing.
 */
@Entity({ name: 'store_releases' })
@Index('uq_store_releases_slug', ['spaceId', 'slug'], { unique: true, where: '"deleted_at" IS NULL' })
@Index('idx_store_releases_public_order', ['spaceId', 'publishedAt', 'id'], {
  where: '"published" AND "deleted_at" IS NULL',
})
export class StoreRelease {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'space_id', type: 'uuid' })
  @ForeignKey('spaces', { onDelete: 'CASCADE' })
  spaceId: string;

  @Column({ type: 'varchar', length: 80 })
  slug: string;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ name: 'cover_media_id', type: 'uuid', nullable: true })
  coverMediaId: string | null;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  credits: StoredCredit[];

  @Column({ type: 'boolean' })
  published: boolean;

  /** Millisecond precision: the listing's keyset. */
  @Column({ name: 'published_at', type: 'timestamptz', precision: 3, nullable: true })
  publishedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;

  @Column({ name: 'deleted_at', type: 'timestamptz', precision: 3, nullable: true })
  deletedAt: Date | null;
}
