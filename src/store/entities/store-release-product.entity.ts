import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A product listed by a release, at `position` in the release's order. */
@Entity({ name: 'store_release_products' })
@Index('idx_store_release_products_product', ['productId'])
export class StoreReleaseProduct {
  @PrimaryColumn({ name: 'release_id', type: 'uuid' })
  @ForeignKey('store_releases', { onDelete: 'CASCADE' })
  releaseId: string;

  @PrimaryColumn({ name: 'product_id', type: 'uuid' })
  @ForeignKey('store_products', { onDelete: 'CASCADE' })
  productId: string;

  @Column({ type: 'integer' })
  position: number;
}
