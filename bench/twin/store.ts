import type { Pool } from 'pg';
import {
  productCardsPageStatement,
  PRODUCTS_STATEMENTS,
} from '../../src/store/repositories/products.repository';
import { answer, TwinRefusal, wireId, type TwinHandler } from './context';
import { spaceByDomain, wordedSummary, type SpaceRow } from './rows';

/**
 * The store's public reads (design.md §13), bare, in the app's statements (StorefrontService, ProductsRepository's declarations): the
 * public space by its subdomain, then the product page (limit + 1 over the listing's partial
 * index) or the product by slug, the public prices of the products in one query, and for the
 * purchase page the newest published release listing the product.
 */

const PUBLIC_PRICE_TYPES = ['one-time', 'pay-what-you-want'];
const LISTING = 'public-store-products';
const SLUG = /^[a-z0-9-]{1,80}$/;

/** ProductsRepository's statement of the purchase page's release (StorefrontService.releaseOf). */
export const LATEST_RELEASE_OF_PRODUCT = PRODUCTS_STATEMENTS.latestReleaseOfProduct;

interface ProductRow {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  sort_order: number;
  sold_out: boolean;
  purchasable: boolean;
}

interface PriceRow {
  id: string;
  product_id: string;
  type: string;
  currency: string;
  amount: string;
  suggested_amount: string | null;
  interval: string | null;
}

async function publicSpace(pool: Pool, url: URL): Promise<SpaceRow> {
  const space = await spaceByDomain(pool, decodeURIComponent(url.pathname.split('/')[3] ?? ''));
  if (!space || !space.is_public) throw new TwinRefusal(404, 'no such space');
  return space;
}

/** ProductsRepository's statement of the public prices (ProductsRepository.publicPricesOf). */
export const PUBLIC_PRICES_OF_PRODUCTS = PRODUCTS_STATEMENTS.publicPricesOfProducts;

/** ProductsRepository's statement of the purchase page's product (StorefrontService.getProduct). */
export const PUBLISHED_PRODUCT_BY_SLUG = PRODUCTS_STATEMENTS.publishedProductBySlug;

/** ProductsRepository.publicPricesOf: the active one-time and pay-what-you-want prices, in order. */
async function publicPrices(pool: Pool, productIds: string[]): Promise<Map<string, object[]>> {
  const byProduct = new Map<string, object[]>(productIds.map((id) => [id, []]));
  if (productIds.length === 0) return byProduct;
  const { rows } = await pool.query<PriceRow>(PUBLIC_PRICES_OF_PRODUCTS, [
    [...new Set(productIds)],
    PUBLIC_PRICE_TYPES,
  ]);
  for (const row of rows) {
    byProduct.get(row.product_id)?.push({
      id: wireId('price', row.id),
      type: row.type,
      currency: row.currency,
      amount: Number(row.amount),
      ...(row.suggested_amount !== null ? { suggestedAmount: Number(row.suggested_amount) } : {}),
      ...(row.interval !== null ? { interval: row.interval } : {}),
      archived: false,
    });
  }
  return byProduct;
}

const card = (product: ProductRow, prices: Map<string, object[]>) => ({
  id: wireId('product', product.id),
  slug: product.slug,
  name: product.name,
  cover: null,
  prices: prices.get(product.id),
  isSoldOut: product.sold_out,
  purchasable: product.purchasable,
});

/** ProductsRepository's product page statement, forward pages: the text and parameters the app sends. */
export function productPage(
  spaceId: string,
  after: (string | number | boolean | null)[] | null,
  take: number,
): { sql: string; parameters: unknown[] } {
  return productCardsPageStatement(spaceId, { values: after, backward: false, take });
}

/** GET /v1/spaces/{space}/products?limit=…[&after=…]. */
export const storeProducts: TwinHandler = async ({ pool, url, cursors }) => {
  const space = await publicSpace(pool, url);
  const limit = Number(url.searchParams.get('limit') ?? 20);
  const cursor = url.searchParams.get('after');
  const after = cursor === null ? null : cursors.decode(LISTING, cursor);
  if (cursor !== null && (after === null || after.length !== 2)) throw new TwinRefusal(400, 'Invalid cursor');
  const { sql, parameters } = productPage(space.id, after, limit + 1);
  const { rows } = await pool.query<ProductRow>(sql, parameters);
  const page = rows.slice(0, limit);
  const prices = await publicPrices(
    pool,
    page.map((row) => row.id),
  );
  const encode = (row: ProductRow | undefined) =>
    row ? cursors.encode(LISTING, [row.sort_order, row.id]) : null;
  return answer({
    items: page.map((row) => card(row, prices)),
    nextCursor: rows.length > limit ? encode(page[page.length - 1]) : null,
    previousCursor: after ? encode(page[0]) : null,
  });
};

/** GET /v1/spaces/{space}/products/{slug}: the purchase page. */
export const storePurchasePage: TwinHandler = async ({ pool, url, webDomain }) => {
  const space = await publicSpace(pool, url);
  const slug = decodeURIComponent(url.pathname.split('/')[5] ?? '');
  const { rows } = SLUG.test(slug)
    ? await pool.query<ProductRow>(PUBLISHED_PRODUCT_BY_SLUG, [space.id, slug])
    : { rows: [] };
  const product = rows[0];
  if (!product) throw new TwinRefusal(404, 'no such product');
  const prices = await publicPrices(pool, [product.id]);
  const releases = await pool.query<{ id: string; slug: string; title: string }>(LATEST_RELEASE_OF_PRODUCT, [
    product.id,
    space.id,
  ]);
  const release = releases.rows[0];
  // design.md §13's order, as the app's toProductPage: description right after name.
  return answer({
    id: wireId('product', product.id),
    slug: product.slug,
    name: product.name,
    description: product.description,
    cover: null,
    prices: prices.get(product.id),
    isSoldOut: product.sold_out,
    purchasable: product.purchasable,
    release: release ? { id: wireId('release', release.id), slug: release.slug, title: release.title } : null,
    space: {
      displayName: space.display_name,
      description: space.description,
      avatarUrl: null,
      domain: space.domain,
      joinMode: space.join_mode,
      subscribeEnabled: space.subscribe_enabled,
      memberCountSummary: wordedSummary(space.member_count, 'members'),
    },
    canonicalUri: `https://${space.domain}.${webDomain}/store/${product.slug}`,
  });
};
