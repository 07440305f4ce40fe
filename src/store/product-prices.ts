import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { StoreProductPrice } from './entities/store-product-price.entity';
import { PUBLIC_PRICE_TYPES } from './store-rules';
import { priceOfRow, PUBLIC_PRICES_OF_PRODUCTS, PublicPriceRow } from './store-rows';

/** Reads of product prices: one query per page of products, never one per product. */
@Injectable()
export class ProductPrices {
  constructor(@InjectRepository(StoreProductPrice) private readonly prices: Repository<StoreProductPrice>) {}

  /** Every price of one product, in order (admin records). */
  allOf(productId: string): Promise<StoreProductPrice[]> {
    return this.prices.find({ where: { productId }, order: { position: 'ASC' } });
  }

  /** The public prices (design.md §9: active one-time and pay-what-you-want) of each product, in order. */
  async publicOf(productIds: readonly string[]): Promise<Map<string, StoreProductPrice[]>> {
    const byProduct = new Map<string, StoreProductPrice[]>(productIds.map((id) => [id, []]));
    if (productIds.length === 0) return byProduct;
    const rows: PublicPriceRow[] = await this.prices.query(PUBLIC_PRICES_OF_PRODUCTS, [
      [...new Set(productIds)],
      [...PUBLIC_PRICE_TYPES],
    ]);
    for (const row of rows) byProduct.get(row.product_id)?.push(priceOfRow(row));
    return byProduct;
  }
}
