import { formatEntityId } from '../../common/ids/entity-id';
import { MediaObject } from '../../media';
import { SpaceCallToAction } from '../../posts';
import {
  PriceRecord,
  ProductAdminRecord,
  ProductCard,
  ProductPage,
  ReleaseAdminRecord,
  ReleaseReference,
  TicketEntry,
} from '../dto/store-records.dto';
import { StoreProductPrice } from '../entities/store-product-price.entity';
import { StoreProduct } from '../entities/store-product.entity';
import { StoreRelease } from '../entities/store-release.entity';
import { PUBLIC_PRICE_TYPES } from '../domain/store-rules';

const iso = (date: Date) => date.toISOString();

export const toPriceRecord = (price: StoreProductPrice): PriceRecord => ({
  id: formatEntityId('price', price.id),
  type: price.type,
  currency: price.currency,
  amount: price.amount,
  ...(price.suggestedAmount !== null ? { suggestedAmount: price.suggestedAmount } : {}),
  ...(price.interval !== null ? { interval: price.interval } : {}),
  archived: price.archived,
});

/** The prices a public record shows (design.md §9): active one-time and pay-what-you-want. */
export const isPublicPrice = (price: StoreProductPrice): boolean =>
  !price.archived && PUBLIC_PRICE_TYPES.includes(price.type);

export const byPosition = (a: StoreProductPrice, b: StoreProductPrice): number => a.position - b.position;

/** A product as events list it; `prices` already the public ones, in order. */
export const toTicketEntry = (product: StoreProduct, prices: StoreProductPrice[]): TicketEntry => ({
  id: formatEntityId('product', product.id),
  slug: product.slug,
  name: product.name,
  prices: prices.map(toPriceRecord),
  isSoldOut: product.soldOut,
  purchasable: product.purchasable,
});

/** The card of a published product; `cover` its image (a public, permanent URL) or null. */
export const toProductCard = (
  product: StoreProduct,
  prices: StoreProductPrice[],
  cover: MediaObject | null,
): ProductCard => {
  const { id, slug, name, ...rest } = toTicketEntry(product, prices);
  return { id, slug, name, cover, ...rest };
};

/**
 * The purchase page in design.md §13's member order (clients compare bytes): the card with
 * `description` after `name`, then `release`, `space`, `canonicalUri`.
 */
export const toProductPage = (
  card: ProductCard,
  description: string | null,
  release: ReleaseReference | null,
  space: SpaceCallToAction,
  canonicalUri: string,
): ProductPage => {
  const { id, slug, name, ...rest } = card;
  return { id, slug, name, description, ...rest, release, space, canonicalUri };
};

export const toProductAdminRecord = (
  product: StoreProduct,
  prices: StoreProductPrice[],
  cover: MediaObject | null,
): ProductAdminRecord => ({
  id: formatEntityId('product', product.id),
  spaceId: formatEntityId('space', product.spaceId),
  slug: product.slug,
  name: product.name,
  description: product.description,
  cover,
  sortOrder: product.sortOrder,
  prices: [...prices].sort(byPosition).map(toPriceRecord),
  isSoldOut: product.soldOut,
  purchasable: product.purchasable,
  published: product.published,
  createdAt: iso(product.createdAt),
  updatedAt: iso(product.updatedAt),
});

export const toReleaseAdminRecord = (
  release: StoreRelease,
  productUuids: string[],
  cover: MediaObject | null,
): ReleaseAdminRecord => ({
  id: formatEntityId('release', release.id),
  spaceId: formatEntityId('space', release.spaceId),
  slug: release.slug,
  title: release.title,
  description: release.description,
  cover,
  credits: release.credits.map((credit) => ({ name: credit.name, role: credit.role, did: credit.did })),
  productIds: productUuids.map((uuid) => formatEntityId('product', uuid)),
  published: release.published,
  publishedAt: release.publishedAt ? iso(release.publishedAt) : null,
  createdAt: iso(release.createdAt),
  updatedAt: iso(release.updatedAt),
});
