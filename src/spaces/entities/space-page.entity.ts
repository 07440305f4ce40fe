import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import { Space } from './space.entity';

/**
 * A page of a space's site (api-spec.md "Page"): markdown, addressed by id or by its slug (unique
 * per space). A disabled page is 404 publicly. Listed by `sortOrder`, then id.
 */
@Entity({ name: 'space_pages' })
@Index('uq_space_pages_slug', ['spaceId', 'slug'], { unique: true })
@Index('idx_space_pages_order', ['spaceId', 'sortOrder', 'id'])
// The full-text index the search module reads through the view searchable_pages (created by its
// migration: a GIN index TypeORM cannot declare; docs/decisions/0180-search-indexes-on-the-owners-tables.md).
@Index('idx_space_pages_search', { synchronize: false })
export class SpacePage {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'space_id', type: 'uuid' })
  spaceId: string;

  @ManyToOne(() => Space, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'space_id' })
  space?: Space;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  @Column({ type: 'varchar', length: 100 })
  slug: string;

  @Column({ type: 'text' })
  body: string;

  @Column({ name: 'cover_media_id', type: 'uuid', nullable: true })
  coverMediaId: string | null;

  @Column({ name: 'sort_order', type: 'integer', default: 0 })
  sortOrder: number;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  /** Millisecond precision: the listing's `updatedAt`. */
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;

  /**
   * The row's full-text vector, set by a trigger in the writing statement from what its readers see
   * (docs/decisions/0180-search-indexes-on-the-owners-tables.md); never read or written here.
   */
  @Column({
    name: 'search_vector',
    type: 'tsvector',
    nullable: true,
    select: false,
    insert: false,
    update: false,
  })
  searchVector?: string | null;
}
