import { SelectQueryBuilder } from 'typeorm';
import { StoreProductPrice } from './entities/store-product-price.entity';
import { StoreProduct } from './entities/store-product.entity';
import type { PriceInterval, PriceType } from './store-rules';

/**
 * The store's hot public reads on fixed SQL with explicit row mapping: TypeORM's entity hydration
 * (transformColumns and friends) was a quarter of a 100-product listing's CPU.
 */

/** The active one-time and pay-what-you-want prices of some products ($1 ids, $2 types), in order. */
export const PUBLIC_PRICES_OF_PRODUCTS =
  'SELECT id, product_id, position, type, currency, amount, suggested_amount, interval FROM store_product_prices ' +
  'WHERE product_id = ANY($1::uuid[]) AND NOT archived AND type = ANY($2::varchar[]) ORDER BY product_id, position';

export interface PublicPriceRow {
  id: string;
  product_id: string;
  position: number;
  type: PriceType;
  currency: string;
  /** bigint: node-postgres gives it as a string. */
  amount: string;
  suggested_amount: string | null;
  interval: PriceInterval | null;
}

export function priceOfRow(row: PublicPriceRow): StoreProductPrice {
  return {
    id: row.id,
    productId: row.product_id,
    position: row.position,
    type: row.type,
    currency: row.currency,
    amount: Number(row.amount),
    suggestedAmount: row.suggested_amount === null ? null : Number(row.suggested_amount),
    interval: row.interval,
    archived: false,
  };
}

/** What a product card shows (no description, no bookkeeping). */
const CARD_COLUMNS: (keyof StoreProduct)[] = [
  'id',
  'spaceId',
  'slug',
  'name',
  'coverMediaId',
  'sortOrder',
  'soldOut',
  'purchasable',
];

/** Products aliased `product`, selecting the card columns (read the rows with `readProductCards`). */
export function selectProductCardColumns(
  builder: SelectQueryBuilder<StoreProduct>,
): SelectQueryBuilder<StoreProduct> {
  return builder.select(CARD_COLUMNS.map((column) => `product.${column}`));
}

interface ProductCardRow {
  product_id: string;
  product_space_id: string;
  product_slug: string;
  product_name: string;
  product_cover_media_id: string | null;
  product_sort_order: number;
  product_sold_out: boolean;
  product_purchasable: boolean;
}

/** The rows of a card query (TypeORM names each column `product_<column>`), as products. */
export async function readProductCards(query: SelectQueryBuilder<StoreProduct>): Promise<StoreProduct[]> {
  const rows = await query.getRawMany<ProductCardRow>();
  return rows.map((row) => {
    const product = new StoreProduct();
    product.id = row.product_id;
    product.spaceId = row.product_space_id;
    product.slug = row.product_slug;
    product.name = row.product_name;
    product.coverMediaId = row.product_cover_media_id;
    product.sortOrder = row.product_sort_order;
    product.soldOut = row.product_sold_out;
    product.purchasable = row.product_purchasable;
    return product;
  });
}

/** A published live product of a space by its slug ($1 space id, $2 slug): the purchase page's columns. */
export const PUBLISHED_PRODUCT_BY_SLUG =
  'SELECT id, space_id, slug, name, description, cover_media_id, sort_order, sold_out, purchasable FROM store_products ' +
  'WHERE space_id = $1 AND slug = $2 AND published AND deleted_at IS NULL';

export interface ProductPageRow {
  id: string;
  space_id: string;
  slug: string;
  name: string;
  description: string | null;
  cover_media_id: string | null;
  sort_order: number;
  sold_out: boolean;
  purchasable: boolean;
}

export function productOfRow(row: ProductPageRow): StoreProduct {
  const product = new StoreProduct();
  product.id = row.id;
  product.spaceId = row.space_id;
  product.slug = row.slug;
  product.name = row.name;
  product.description = row.description;
  product.coverMediaId = row.cover_media_id;
  product.sortOrder = row.sort_order;
  product.soldOut = row.sold_out;
  product.purchasable = row.purchasable;
  return product;
}
