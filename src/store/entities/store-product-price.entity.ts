import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import type { PriceInterval, PriceType } from '../domain/store-rules';
import { BIGINT_AS_NUMBER } from './bigint-number';

/** A price of a product (design.md §9): amounts in minor units of `currency`. */
@Entity({ name: 'store_product_prices' })
@Index('idx_store_product_prices_product', ['productId', 'position'])
export class StoreProductPrice {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'product_id', type: 'uuid' })
  @ForeignKey('store_products', { onDelete: 'CASCADE' })
  productId: string;

  /** Place in the product's list, from 0. */
  @Column({ type: 'integer' })
  position: number;

  @Column({ type: 'varchar', length: 24 })
  type: PriceType;

  @Column({ type: 'char', length: 3 })
  currency: string;

  /** The price; for pay-what-you-want the minimum. */
  @Column({ type: 'bigint', transformer: BIGINT_AS_NUMBER })
  amount: number;

  @Column({ name: 'suggested_amount', type: 'bigint', nullable: true, transformer: BIGINT_AS_NUMBER })
  suggestedAmount: number | null;

  @Column({ type: 'varchar', length: 8, nullable: true })
  interval: PriceInterval | null;

  @Column({ type: 'boolean', default: false })
  archived: boolean;
}
