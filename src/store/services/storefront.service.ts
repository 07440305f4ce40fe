import { Injectable } from '@nestjs/common';
import { notFound } from '../../common/errors/api-error';
import { formatEntityId, parseEntityId } from '../../common/ids/entity-id';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { closeKeysetPage, openKeysetPage } from '../../common/pagination/keyset';
import { Page } from '../../common/pagination/page';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { SpaceCallToAction } from '../../posts';
import { SpaceDirectoryService, SpaceView } from '../../spaces';
import { MediaObject, MediaLookupService } from '../../media';
import { AuthorDirectoryService } from '../../users';
import {
  FullRelease,
  ProductCard,
  ProductPage,
  ReleaseCard,
  ReleaseReference,
} from '../dto/store-records.dto';
import { PUBLIC_PRICE_TYPES, STORE_SLUG_PATTERN } from '../domain/store-rules';
import { StoreProduct } from '../entities/store-product.entity';
import { StoreRelease } from '../entities/store-release.entity';
import { ProductsRepository } from '../repositories/products.repository';
import { ReleasesRepository } from '../repositories/releases.repository';
import { toProductCard, toProductPage } from './store.presenter';

/** The cover a record names, from the covers read for its page; null when none (or not ready). */
const coverOf = (id: string | null, covers: Map<string, MediaObject>): MediaObject | null =>
  (id && covers.get(id)) || null;

/** The product listing's order (ProductsRepository's `productCardsPage` seeks and sorts by it). */
const PRODUCT_ORDER = [
  { expression: 'sort_order', direction: 'ASC' as const },
  { expression: 'id', direction: 'ASC' as const },
];
/** The release listing's order (ReleasesRepository's `releasesPage`). */
const RELEASE_ORDER = [
  { expression: 'published_at', direction: 'DESC' as const },
  { expression: 'id', direction: 'DESC' as const },
];

/**
 * The anonymous store reads (design.md §13): published, live products and releases of spaces with
 * a public profile; everything else is the one 404 (an empty catalog is an empty page).
 */
@Injectable()
export class StorefrontService {
  constructor(
    private readonly products: ProductsRepository,
    private readonly releases: ReleasesRepository,
    private readonly directory: SpaceDirectoryService,
    private readonly authors: AuthorDirectoryService,
    private readonly cursors: CursorCodec,
    private readonly media: MediaLookupService,
  ) {}

  async listProducts(reference: string, query: PaginationQueryDto): Promise<Page<ProductCard>> {
    const space = await this.publicSpace(reference);
    const keyset = {
      listing: 'public-store-products',
      columns: PRODUCT_ORDER,
      keyOf: (product: StoreProduct) => [product.sortOrder, product.id],
      page: query,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    const page = closeKeysetPage(seek, await this.products.productCardsPage(space.id, seek), keyset);
    return {
      items: await this.cards(page.rows),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
    };
  }

  /** The purchase page of a published product by its slug. */
  async getProduct(reference: string, slug: string): Promise<ProductPage> {
    const space = await this.publicSpace(reference);
    const product = STORE_SLUG_PATTERN.test(slug)
      ? await this.products.publishedProductBySlug(space.id, slug)
      : null;
    if (!product) throw notFound();
    const [card] = await this.cards([product]);
    const [release, callToAction] = await Promise.all([this.releaseOf(product), this.callToAction(space)]);
    return toProductPage(
      card,
      product.description,
      release,
      callToAction,
      `${this.directory.publicUrl(space)}/store/${product.slug}`,
    );
  }

  async listReleases(reference: string, query: PaginationQueryDto): Promise<Page<ReleaseCard>> {
    const space = await this.publicSpace(reference);
    const keyset = {
      listing: 'public-store-releases',
      columns: RELEASE_ORDER,
      keyOf: (release: StoreRelease) => [release.publishedAt!.toISOString(), release.id],
      page: query,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    const page = closeKeysetPage(seek, await this.releases.releasesPage(space.id, seek), keyset);
    const covers = await this.media.imageObjects(page.rows.map((release) => release.coverMediaId));
    return {
      items: page.rows.map((release) => this.releaseCard(space, release, covers)),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
    };
  }

  /** A published release by id or slug, with its credits and its published products in order. */
  async getRelease(reference: string, releaseReference: string): Promise<FullRelease> {
    const space = await this.publicSpace(reference);
    const id = parseEntityId('release', releaseReference);
    const key = id ? { id } : STORE_SLUG_PATTERN.test(releaseReference) ? { slug: releaseReference } : null;
    const release = key ? await this.releases.publishedRelease(space.id, key) : null;
    if (!release) throw notFound();
    const products = await this.products.publishedProductsOfRelease(release.id, space.id);
    const [publicDids, covers] = await Promise.all([
      this.authors.withPublicProfile(release.credits.flatMap((credit) => (credit.did ? [credit.did] : []))),
      this.media.imageObjects([release.coverMediaId]),
    ]);
    return {
      ...this.releaseCard(space, release, covers),
      description: release.description,
      credits: release.credits.map((credit) => ({
        name: credit.name,
        role: credit.role,
        did: credit.did && publicDids.has(credit.did) ? credit.did : null,
      })),
      products: await this.cards(products),
    };
  }

  private async publicSpace(reference: string): Promise<SpaceView> {
    const space = await this.directory.findPublicByReference(reference);
    if (!space) throw notFound();
    return space;
  }

  private async cards(products: StoreProduct[]): Promise<ProductCard[]> {
    const [prices, covers] = await Promise.all([
      this.products.publicPricesOf(
        products.map((product) => product.id),
        PUBLIC_PRICE_TYPES,
      ),
      this.media.imageObjects(products.map((product) => product.coverMediaId)),
    ]);
    return products.map((product) =>
      toProductCard(product, prices.get(product.id)!, coverOf(product.coverMediaId, covers)),
    );
  }

  /** The most recently published live release listing the product, if any (fixed SQL: every purchase page asks). */
  private async releaseOf(product: StoreProduct): Promise<ReleaseReference | null> {
    const release = await this.products.latestReleaseOf(product.id, product.spaceId);
    return release
      ? { id: formatEntityId('release', release.id), slug: release.slug, title: release.title }
      : null;
  }

  private releaseCard(
    space: SpaceView,
    release: StoreRelease,
    covers: Map<string, MediaObject>,
  ): ReleaseCard {
    return {
      id: formatEntityId('release', release.id),
      slug: release.slug,
      title: release.title,
      cover: coverOf(release.coverMediaId, covers),
      publishedAt: release.publishedAt!.toISOString(),
      canonicalUri: `${this.directory.publicUrl(space)}/release/${release.slug}`,
    };
  }

  /** api-spec.md "Space call-to-action (compact context)". */
  private async callToAction(space: SpaceView): Promise<SpaceCallToAction> {
    const avatars = await this.media.imageUrls([space.avatarMediaId]);
    return {
      displayName: space.displayName,
      description: space.description,
      avatarUrl: (space.avatarMediaId && avatars.get(space.avatarMediaId)) || null,
      domain: space.domain,
      joinMode: space.joinMode,
      subscribeEnabled: space.subscribeEnabled,
      memberCountSummary: this.directory.memberCountSummary(space),
    };
  }
}
