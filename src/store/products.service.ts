import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, IsNull, Repository } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { RequestPrincipal } from '../common/auth/request-authenticator';
import { notFound } from '../common/errors/api-error';
import { newUuid, parseEntityId } from '../common/ids/entity-id';
import { SpaceAccess } from '../spaces';
import { MediaLookup } from '../media';
import { ProductAdminRecord } from './dto/store-records.dto';
import { ProductRequest } from './dto/store-requests.dto';
import { StoreProductPrice } from './entities/store-product-price.entity';
import { StoreProduct } from './entities/store-product.entity';
import { StoreReleaseProduct } from './entities/store-release-product.entity';
import { priceRows } from './price-rows';
import { ProductPrices } from './product-prices';
import { toProductAdminRecord } from './store-records';
import { slugFrom } from './store-rules';
import { freeSlug } from './store-slugs';
import { DERIVED_SLUG_ATTEMPTS, writeUnique } from './unique-writes';

/**
 * The admins' product writes (design.md §9). Each write is one transaction (product row and its
 * prices) and answers the written record; a deleted product frees its slug and leaves every
 * release and ticket list at once.
 */
@Injectable()
export class ProductsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(StoreProduct) private readonly products: Repository<StoreProduct>,
    private readonly access: SpaceAccess,
    private readonly prices: ProductPrices,
    private readonly clock: Clock,
    private readonly media: MediaLookup,
  ) {}

  async create(
    principal: RequestPrincipal,
    pathId: string,
    request: ProductRequest,
  ): Promise<ProductAdminRecord> {
    const { space } = await this.access.resolveAdmin(pathId, principal.did);
    const coverMediaId = (await this.media.ownImage('coverId', request.coverId, principal.did)) ?? null;
    const id = newUuid();
    const prices = priceRows(id, request.prices, new Set());
    const product = await writeUnique(
      this.dataSource,
      async (manager) => {
        const slug =
          request.slug ??
          (await freeSlug(manager, StoreProduct, space.id, slugFrom(request.name, 'product')));
        await manager.insert(StoreProduct, {
          id,
          spaceId: space.id,
          slug,
          name: request.name,
          description: request.description ?? null,
          coverMediaId,
          sortOrder: request.sortOrder ?? 0,
          published: request.published,
          soldOut: request.soldOut ?? false,
          purchasable: request.purchasable ?? true,
          deletedAt: null,
        });
        if (prices.length > 0) await manager.insert(StoreProductPrice, prices);
        return manager.findOneByOrFail(StoreProduct, { id });
      },
      request.slug === undefined ? DERIVED_SLUG_ATTEMPTS : 1,
    );
    return toProductAdminRecord(product, prices, await this.media.imageObject(product.coverMediaId));
  }

  /**
   * Replaces name, prices and `published`; slug, description, sortOrder, soldOut and purchasable
   * when sent (null clears the description). Prices that name their id keep it.
   */
  async update(
    principal: RequestPrincipal,
    pathId: string,
    productId: string,
    request: ProductRequest,
  ): Promise<ProductAdminRecord> {
    const product = await this.adminProduct(principal, pathId, productId);
    const coverMediaId = await this.media.ownImage('coverId', request.coverId, principal.did);
    const current = await this.prices.allOf(product.id);
    const prices = priceRows(product.id, request.prices, new Set(current.map((price) => price.id)));
    const written = await writeUnique(this.dataSource, async (manager) => {
      await manager.update(
        StoreProduct,
        { id: product.id },
        {
          name: request.name,
          published: request.published,
          ...(request.slug !== undefined ? { slug: request.slug } : {}),
          ...(request.description !== undefined ? { description: request.description } : {}),
          ...(coverMediaId !== undefined ? { coverMediaId } : {}),
          ...(request.sortOrder !== undefined ? { sortOrder: request.sortOrder } : {}),
          ...(request.soldOut !== undefined ? { soldOut: request.soldOut } : {}),
          ...(request.purchasable !== undefined ? { purchasable: request.purchasable } : {}),
        },
      );
      await manager.delete(StoreProductPrice, { productId: product.id });
      if (prices.length > 0) await manager.insert(StoreProductPrice, prices);
      return manager.findOneByOrFail(StoreProduct, { id: product.id });
    });
    return toProductAdminRecord(written, prices, await this.media.imageObject(written.coverMediaId));
  }

  async remove(principal: RequestPrincipal, pathId: string, productId: string): Promise<void> {
    const product = await this.adminProduct(principal, pathId, productId);
    await this.dataSource.transaction(async (manager) => {
      await manager.update(StoreProduct, { id: product.id }, { deletedAt: this.clock.now() });
      await manager.delete(StoreReleaseProduct, { productId: product.id });
    });
  }

  /** A live product of a space the caller administers; anything else is the one 404. */
  private async adminProduct(
    principal: RequestPrincipal,
    pathId: string,
    productId: string,
  ): Promise<StoreProduct> {
    const { space } = await this.access.resolveAdmin(pathId, principal.did);
    const id = parseEntityId('product', productId);
    const product = id
      ? await this.products.findOne({ where: { id, spaceId: space.id, deletedAt: IsNull() } })
      : null;
    if (!product) throw notFound();
    return product;
  }
}
