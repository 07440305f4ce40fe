import {
  Column,
  CreateDateColumn,
  Entity,
  ForeignKey,
  Index,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';

/**
 * A product of a space's store (design.md §13). Deleting sets `deletedAt`: the slug is unique only
 * among live rows, so a deleted product frees it. Public routes show published, live products.
 */
@Entity({ name: 'store_products' })
@Index('uq_store_products_slug', ['spaceId', 'slug'], { unique: true, where: '"deleted_at" IS NULL' })
@Index('idx_store_products_public_order', ['spaceId', 'sortOrder', 'id'], {
  where: '"published" AND "deleted_at" IS NULL',
})
export class StoreProduct {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'space_id', type: 'uuid' })
  @ForeignKey('spaces', { onDelete: 'CASCADE' })
  spaceId: string;

  @Column({ type: 'varchar', length: 80 })
  slug: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ name: 'cover_media_id', type: 'uuid', nullable: true })
  coverMediaId: string | null;

  @Column({ name: 'sort_order', type: 'integer', default: 0 })
  sortOrder: number;

  @Column({ type: 'boolean' })
  published: boolean;

  @Column({ name: 'sold_out', type: 'boolean', default: false })
  soldOut: boolean;

  @Column({ type: 'boolean', default: true })
  purchasable: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;

  @Column({ name: 'deleted_at', type: 'timestamptz', precision: 3, nullable: true })
  deletedAt: Date | null;
}
