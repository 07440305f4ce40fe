import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { defineStatements } from '../../infrastructure/database/statements';
import { KeysetSeek } from '../../common/pagination/keyset';
import type { PriceInterval, PriceType } from '../domain/store-rules';
import { StoreProductPrice } from '../entities/store-product-price.entity';
import { StoreProduct } from '../entities/store-product.entity';

/**
 * The store's hot public reads are fixed SQL with explicit row mapping
 * (docs/decisions/0084-hot-reads-on-fixed-sql-with-explicit-row-mapping.md): TypeORM's entity
 * hydration and its query builder showed in a product listing's profile.
 */

/** What a product card shows (no description, no bookkeeping). */
const PRODUCT_CARD_COLUMNS = 'id, space_id, slug, name, cover_media_id, sort_order, sold_out, purchasable';
const PRODUCT_CARD_COLUMNS_OF_P =
  'p.id, p.space_id, p.slug, p.name, p.cover_media_id, p.sort_order, p.sold_out, p.purchasable';
const PUBLISHED_PRODUCTS_OF_SPACE = `SELECT ${PRODUCT_CARD_COLUMNS} FROM store_products WHERE space_id = $1 AND published AND deleted_at IS NULL`;
const PRICE_COLUMNS = 'id, product_id, position, type, currency, amount, suggested_amount, interval';

/**
 * The fixed SQL on products and their prices, and the purchase page's reads
 * (docs/decisions/0131-a-repository-per-module.md).
 */
export const PRODUCTS_STATEMENTS = defineStatements('ProductsRepository', {
  /** Which of these media ($1 uuid[]) a row still names: an erasure keeps those (0192-an-erasure-takes-the-persons-media-and-invites.md). */
  mediaNamed:
    'SELECT cover_media_id AS id FROM store_products WHERE cover_media_id = ANY($1::uuid[]) ' +
    'UNION SELECT cover_media_id FROM store_releases WHERE cover_media_id = ANY($1::uuid[])',
  /**
   * A page of a space's published live products in the listing's order (`sort_order, id`, over
   * the partial index of published products): $1 space id; after a cursor $2, $3 its position
   * (exclusive); then the count. `before` reads backward.
   */
  productCardsPage: {
    first: `${PUBLISHED_PRODUCTS_OF_SPACE} ORDER BY sort_order ASC, id ASC LIMIT $2`,
    after: `${PUBLISHED_PRODUCTS_OF_SPACE} AND (sort_order, id) > ($2, $3) ORDER BY sort_order ASC, id ASC LIMIT $4`,
    before: `${PUBLISHED_PRODUCTS_OF_SPACE} AND (sort_order, id) < ($2, $3) ORDER BY sort_order DESC, id DESC LIMIT $4`,
  },
  /** A published live product of a space by its slug ($1 space id, $2 slug): the purchase page's columns. */
  publishedProductBySlug:
    `SELECT ${PRODUCT_CARD_COLUMNS}, description FROM store_products ` +
    'WHERE space_id = $1 AND slug = $2 AND published AND deleted_at IS NULL',
  /** The published live products ($1 ids) whatever their space: ticket entries. */
  publishedProductsByIds:
    `SELECT ${PRODUCT_CARD_COLUMNS} FROM store_products ` +
    'WHERE id = ANY($1::uuid[]) AND published AND deleted_at IS NULL',
  /** Which of the ids ($1) name live products of the space ($2), published or not. */
  liveProductIds:
    'SELECT id FROM store_products WHERE id = ANY($1::uuid[]) AND space_id = $2 AND deleted_at IS NULL',
  /** The published live products of the space ($2) a release ($1) lists, in its order. */
  publishedProductsOfRelease:
    `SELECT ${PRODUCT_CARD_COLUMNS_OF_P} FROM store_products p ` +
    'INNER JOIN store_release_products listed ON listed.product_id = p.id ' +
    'WHERE listed.release_id = $1 AND p.space_id = $2 AND p.published AND p.deleted_at IS NULL ' +
    'ORDER BY listed.position ASC',
  /**
   * The newest published live release of the space listing the product ($1 product id, $2 space id):
   * the purchase page's `release` reference, three columns of one row however many releases list it.
   */
  latestReleaseOfProduct:
    'SELECT r.id, r.slug, r.title FROM "store_releases" r ' +
    'INNER JOIN "store_release_products" listed ON listed.release_id = r.id ' +
    'WHERE listed.product_id = $1 AND r.space_id = $2 AND r.published AND r.deleted_at IS NULL ' +
    'ORDER BY r.published_at DESC, r.id DESC LIMIT 1',
  /**
   * A page of a space's ($1) live products, published or not, by id, for its export ($2 rows;
   * `after`: $3 the last id; docs/decisions/0218-space-export-events-products-releases.md).
   */
  exportProductsPage: {
    first: `SELECT ${PRODUCT_CARD_COLUMNS}, description, published, created_at, updated_at FROM store_products WHERE space_id = $1 AND deleted_at IS NULL ORDER BY id LIMIT $2`,
    after: `SELECT ${PRODUCT_CARD_COLUMNS}, description, published, created_at, updated_at FROM store_products WHERE space_id = $1 AND deleted_at IS NULL AND id > $3 ORDER BY id LIMIT $2`,
  },
  /** Every price of some products ($1 ids), archived ones included, in order: one query per page. */
  pricesOfProducts: `SELECT ${PRICE_COLUMNS}, archived FROM store_product_prices WHERE product_id = ANY($1::uuid[]) ORDER BY product_id, position`,
  /** A deleted product ($1) leaves every release at once. */
  unlistProduct: 'DELETE FROM store_release_products WHERE product_id = $1',
  /** The active one-time and pay-what-you-want prices of some products ($1 ids, $2 types), in order. */
  publicPricesOfProducts:
    `SELECT ${PRICE_COLUMNS} FROM store_product_prices ` +
    'WHERE product_id = ANY($1::uuid[]) AND NOT archived AND type = ANY($2::varchar[]) ORDER BY product_id, position',
  /** Every price of a product ($1), archived ones included, in order. */
  pricesOfProduct: `SELECT ${PRICE_COLUMNS}, archived FROM store_product_prices WHERE product_id = $1 ORDER BY position ASC`,
  /** A product's ($1) prices, all of them: a write replaces the list. */
  deletePricesOfProduct: 'DELETE FROM store_product_prices WHERE product_id = $1',
  /**
   * Prices, one per element of the arrays ($1 … $9, one per column)
   * (docs/decisions/0141-multi-row-writes-as-unnest.md).
   */
  insertPrices:
    'INSERT INTO store_product_prices (id, product_id, position, type, currency, amount, suggested_amount, interval, archived) ' +
    'SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::integer[], $4::varchar[], $5::varchar[], $6::bigint[], ' +
    '$7::bigint[], $8::varchar[], $9::boolean[])',
});

/** The statements the bench twin sends as they are (bench/twin/store.ts). */
export const {
  publicPricesOfProducts: PUBLIC_PRICES_OF_PRODUCTS,
  publishedProductBySlug: PUBLISHED_PRODUCT_BY_SLUG,
  latestReleaseOfProduct: LATEST_RELEASE_OF_PRODUCT,
} = PRODUCTS_STATEMENTS;

/**
 * The statement and parameters of a product page: `take` rows from the seek position (`values`,
 * exclusive), in the opposite order when `backward`.
 */
export function productCardsPageStatement(
  spaceId: string,
  seek: KeysetSeek,
): { sql: string; parameters: unknown[] } {
  const variants = PRODUCTS_STATEMENTS.productCardsPage;
  if (!seek.values) return { sql: variants.first, parameters: [spaceId, seek.take] };
  return {
    sql: seek.backward ? variants.before : variants.after,
    parameters: [spaceId, ...seek.values, seek.take],
  };
}

interface PriceRow {
  id: string;
  product_id: string;
  position: number;
  type: PriceType;
  currency: string;
  /** bigint: node-postgres gives it as a string. */
  amount: string;
  suggested_amount: string | null;
  interval: PriceInterval | null;
  archived?: boolean;
}

function priceOfRow(row: PriceRow): StoreProductPrice {
  return {
    id: row.id,
    productId: row.product_id,
    position: row.position,
    type: row.type,
    currency: row.currency,
    amount: Number(row.amount),
    suggestedAmount: row.suggested_amount === null ? null : Number(row.suggested_amount),
    interval: row.interval,
    archived: row.archived ?? false,
  };
}

interface ProductCardRow {
  id: string;
  space_id: string;
  slug: string;
  name: string;
  cover_media_id: string | null;
  sort_order: number;
  sold_out: boolean;
  purchasable: boolean;
}

interface ProductPageRow extends ProductCardRow {
  description: string | null;
}

/** A row of the export's page: every column but `deleted_at`. */
interface ExportedProductRow extends ProductPageRow {
  published: boolean;
  created_at: Date;
  updated_at: Date;
}

/** A product of a card row or a purchase page's row (with its description). */
function productOfRow(row: ProductCardRow | ProductPageRow): StoreProduct {
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

/** The purchase page's `release` reference. */
export interface ReleaseReferenceRow {
  id: string;
  slug: string;
  title: string;
}

/** Every statement on `store_products` and `store_product_prices`, and the purchase page's release. */
@Injectable()
export class ProductsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async productCardsPage(spaceId: string, seek: KeysetSeek): Promise<StoreProduct[]> {
    const { sql, parameters } = productCardsPageStatement(spaceId, seek);
    const rows = await this.dataSource.query<ProductCardRow[]>(sql, parameters);
    return rows.map(productOfRow);
  }

  async publishedProductBySlug(spaceId: string, slug: string): Promise<StoreProduct | null> {
    const [row] = await this.dataSource.query<ProductPageRow[]>(PRODUCTS_STATEMENTS.publishedProductBySlug, [
      spaceId,
      slug,
    ]);
    return row ? productOfRow(row) : null;
  }

  async publishedProductsByIds(ids: string[]): Promise<StoreProduct[]> {
    const rows = await this.dataSource.query<ProductCardRow[]>(PRODUCTS_STATEMENTS.publishedProductsByIds, [
      ids,
    ]);
    return rows.map(productOfRow);
  }

  async liveProductIds(spaceId: string, ids: string[]): Promise<string[]> {
    const rows = await this.dataSource.query<{ id: string }[]>(PRODUCTS_STATEMENTS.liveProductIds, [
      ids,
      spaceId,
    ]);
    return rows.map((row) => row.id);
  }

  async publishedProductsOfRelease(releaseId: string, spaceId: string): Promise<StoreProduct[]> {
    const rows = await this.dataSource.query<ProductCardRow[]>(
      PRODUCTS_STATEMENTS.publishedProductsOfRelease,
      [releaseId, spaceId],
    );
    return rows.map(productOfRow);
  }

  async latestReleaseOf(productId: string, spaceId: string): Promise<ReleaseReferenceRow | null> {
    const [row] = await this.dataSource.query<ReleaseReferenceRow[]>(
      PRODUCTS_STATEMENTS.latestReleaseOfProduct,
      [productId, spaceId],
    );
    return row ?? null;
  }

  /** A live product of the space, else null. */
  liveProduct(id: string, spaceId: string): Promise<StoreProduct | null> {
    return this.dataSource
      .getRepository(StoreProduct)
      .findOne({ where: { id, spaceId, deletedAt: IsNull() } });
  }

  productById(id: string, runner: EntityManager): Promise<StoreProduct> {
    return runner.findOneByOrFail(StoreProduct, { id });
  }

  async insertProduct(
    product: Omit<StoreProduct, 'createdAt' | 'updatedAt'>,
    runner: EntityManager,
  ): Promise<void> {
    await runner.insert(StoreProduct, product);
  }

  async updateProduct(id: string, changes: Partial<StoreProduct>, runner: EntityManager): Promise<void> {
    await runner.update(StoreProduct, { id }, changes);
  }

  /** Marks the product deleted and takes it off every release. */
  async removeProduct(id: string, at: Date, runner: EntityManager): Promise<void> {
    await runner.update(StoreProduct, { id }, { deletedAt: at });
    await runner.query(PRODUCTS_STATEMENTS.unlistProduct, [id]);
  }

  /** Every price of one product, in order (admin records). */
  async pricesOf(productId: string): Promise<StoreProductPrice[]> {
    const rows = await this.dataSource.query<PriceRow[]>(PRODUCTS_STATEMENTS.pricesOfProduct, [productId]);
    return rows.map(priceOfRow);
  }

  /** A page of the space's live products by id, every column, for the space's export. */
  async exportProductsPage(
    spaceId: string,
    after: string | null,
    limit: number,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<StoreProduct[]> {
    const { exportProductsPage } = PRODUCTS_STATEMENTS;
    const rows = after
      ? await runner.query<ExportedProductRow[]>(exportProductsPage.after, [spaceId, limit, after])
      : await runner.query<ExportedProductRow[]>(exportProductsPage.first, [spaceId, limit]);
    return rows.map((row) =>
      Object.assign(productOfRow(row), {
        published: row.published,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        deletedAt: null,
      }),
    );
  }

  /** Every price of each product, archived ones included, in order: one query per page of products. */
  async pricesOfProducts(
    productIds: readonly string[],
    runner: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, StoreProductPrice[]>> {
    const byProduct = new Map<string, StoreProductPrice[]>(productIds.map((id) => [id, []]));
    if (productIds.length === 0) return byProduct;
    const rows = await runner.query<PriceRow[]>(PRODUCTS_STATEMENTS.pricesOfProducts, [[...productIds]]);
    for (const row of rows) byProduct.get(row.product_id)?.push(priceOfRow(row));
    return byProduct;
  }

  /** The prices of `types` of each product, in order: one query per page of products. */
  async publicPricesOf(
    productIds: readonly string[],
    types: readonly PriceType[],
  ): Promise<Map<string, StoreProductPrice[]>> {
    const byProduct = new Map<string, StoreProductPrice[]>(productIds.map((id) => [id, []]));
    if (productIds.length === 0) return byProduct;
    const rows = await this.dataSource.query<PriceRow[]>(PRODUCTS_STATEMENTS.publicPricesOfProducts, [
      [...new Set(productIds)],
      [...types],
    ]);
    for (const row of rows) byProduct.get(row.product_id)?.push(priceOfRow(row));
    return byProduct;
  }

  /** Replaces the product's prices with `prices` (none deletes them all). */
  async replacePrices(productId: string, prices: StoreProductPrice[], runner: EntityManager): Promise<void> {
    await runner.query(PRODUCTS_STATEMENTS.deletePricesOfProduct, [productId]);
    await this.insertPrices(prices, runner);
  }

  async insertPrices(prices: StoreProductPrice[], runner: EntityManager): Promise<void> {
    if (prices.length === 0) return;
    const column = <K extends keyof StoreProductPrice>(key: K) => prices.map((price) => price[key]);
    await runner.query(PRODUCTS_STATEMENTS.insertPrices, [
      column('id'),
      column('productId'),
      column('position'),
      column('type'),
      column('currency'),
      column('amount'),
      column('suggestedAmount'),
      column('interval'),
      column('archived'),
    ]);
  }

  /** Which of these media a product or a release still names. */
  async mediaNamed(mediaIds: string[], runner: EntityManager): Promise<string[]> {
    const rows = await runner.query<{ id: string }[]>(PRODUCTS_STATEMENTS.mediaNamed, [mediaIds]);
    return rows.map((row) => row.id);
  }
}
