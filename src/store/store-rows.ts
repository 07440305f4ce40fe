import { KeysetSeek, readOrder, seekComparator } from '../common/pagination/keyset';
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
const PRODUCT_CARD_COLUMNS = 'id, space_id, slug, name, cover_media_id, sort_order, sold_out, purchasable';

/**
 * A page of a space's published live products in the listing's order (`sort_order, id`, over the
 * partial index of published products), `take` rows from the seek position (`values`, exclusive),
 * in the opposite order when `backward`. Fixed text per shape: building it with TypeORM's query
 * builder was a tenth of the 100-product page's CPU.
 */
export function productCardsPageStatement(
  spaceId: string,
  seek: KeysetSeek,
): { sql: string; parameters: unknown[] } {
  const order = readOrder('ASC', seek.backward);
  const after = seek.values ? ` AND (sort_order, id) ${seekComparator(order)} ($2, $3)` : '';
  return {
    sql:
      `SELECT ${PRODUCT_CARD_COLUMNS} FROM store_products WHERE space_id = $1 AND published AND deleted_at IS NULL` +
      `${after} ORDER BY sort_order ${order}, id ${order} LIMIT ${seek.values ? '$4' : '$2'}`,
    parameters: seek.values ? [spaceId, ...seek.values, seek.take] : [spaceId, seek.take],
  };
}

export interface ProductCardRow {
  id: string;
  space_id: string;
  slug: string;
  name: string;
  cover_media_id: string | null;
  sort_order: number;
  sold_out: boolean;
  purchasable: boolean;
}

/** A published live product of a space by its slug ($1 space id, $2 slug): the purchase page's columns. */
export const PUBLISHED_PRODUCT_BY_SLUG =
  `SELECT ${PRODUCT_CARD_COLUMNS}, description FROM store_products ` +
  'WHERE space_id = $1 AND slug = $2 AND published AND deleted_at IS NULL';

/**
 * The newest published live release of the space listing the product ($1 product id, $2 space id):
 * the purchase page's `release` reference, three columns of one row however many releases list it.
 */
export const LATEST_RELEASE_OF_PRODUCT =
  'SELECT r.id, r.slug, r.title FROM "store_releases" r ' +
  'INNER JOIN "store_release_products" listed ON listed.release_id = r.id ' +
  'WHERE listed.product_id = $1 AND r.space_id = $2 AND r.published AND r.deleted_at IS NULL ' +
  'ORDER BY r.published_at DESC, r.id DESC LIMIT 1';

export interface ReleaseReferenceRow {
  id: string;
  slug: string;
  title: string;
}

export interface ProductPageRow extends ProductCardRow {
  description: string | null;
}

/** A product of a card row (`productCardsPageStatement`) or a purchase page's row (with its description). */
export function productOfRow(row: ProductCardRow | ProductPageRow): StoreProduct {
  const product = new StoreProduct();
  product.id = row.id;
  product.spaceId = row.space_id;
  product.slug = row.slug;
  product.name = row.name;
  if ('description' in row) product.description = row.description;
  product.coverMediaId = row.cover_media_id;
  product.sortOrder = row.sort_order;
  product.soldOut = row.sold_out;
  product.purchasable = row.purchasable;
  return product;
}
