import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { notFound } from '../../common/errors/api-error';
import { newUuid, parseEntityId } from '../../common/ids/entity-id';
import { DomainEvents } from '../../infrastructure/events/domain-events.service';
import { SpaceAccessService } from '../../spaces';
import { ProductPublished } from '../events/store.events';
import { MediaErasureService, MediaLookupService } from '../../media';
import { priceRows } from '../domain/prices';
import { firstFreeSlug, slugCandidatesPattern, slugFrom } from '../domain/store-rules';
import { ProductAdminRecord } from '../dto/store-records.dto';
import { ProductRequest } from '../dto/store-requests.dto';
import { StoreProduct } from '../entities/store-product.entity';
import { ProductsRepository } from '../repositories/products.repository';
import { SlugsRepository } from '../repositories/slugs.repository';
import { toProductAdminRecord } from './store.presenter';
import { DERIVED_SLUG_ATTEMPTS, UniqueWritesService } from './unique-writes.service';

/**
 * The admins' product writes (design.md §9). Each write is one transaction (product row and its
 * prices) and answers the written record; a deleted product frees its slug and leaves every
 * release and ticket list at once.
 */
@Injectable()
export class ProductsService implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly products: ProductsRepository,
    private readonly slugs: SlugsRepository,
    private readonly uniqueWrites: UniqueWritesService,
    private readonly access: SpaceAccessService,
    private readonly clock: Clock,
    private readonly media: MediaLookupService,
    private readonly mediaErasure: MediaErasureService,
    private readonly events: DomainEvents,
  ) {}

  /** An erasure keeps the media these rows name (docs/decisions/0192-an-erasure-takes-the-persons-media-and-invites.md). */
  onModuleInit(): void {
    this.mediaErasure.registerReferences('store', (manager, ids) => this.products.mediaNamed(ids, manager));
  }

  async create(
    principal: RequestPrincipal,
    pathId: string,
    request: ProductRequest,
  ): Promise<ProductAdminRecord> {
    const { space } = await this.access.resolveAdmin(pathId, principal.did);
    const coverMediaId = (await this.media.ownImage('coverId', request.coverId, principal.did)) ?? null;
    const id = newUuid();
    const prices = priceRows(id, request.prices, new Set());
    const product = await this.uniqueWrites.run(
      async (manager) => {
        const base = slugFrom(request.name, 'product');
        const slug =
          request.slug ??
          firstFreeSlug(
            base,
            await this.slugs.takenSlugs('products', space.id, base, slugCandidatesPattern(base), manager),
          );
        await this.products.insertProduct(
          {
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
          },
          manager,
        );
        await this.products.insertPrices(prices, manager);
        if (request.published) await this.events.emit(manager, new ProductPublished(space.id, id));
        return this.products.productById(id, manager);
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
    const current = await this.products.pricesOf(product.id);
    const prices = priceRows(product.id, request.prices, new Set(current.map((price) => price.id)));
    const written = await this.uniqueWrites.run(async (manager) => {
      await this.products.updateProduct(
        product.id,
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
        manager,
      );
      await this.products.replacePrices(product.id, prices, manager);
      if (request.published && !product.published) {
        await this.events.emit(manager, new ProductPublished(product.spaceId, product.id));
      }
      return this.products.productById(product.id, manager);
    });
    return toProductAdminRecord(written, prices, await this.media.imageObject(written.coverMediaId));
  }

  async remove(principal: RequestPrincipal, pathId: string, productId: string): Promise<void> {
    const product = await this.adminProduct(principal, pathId, productId);
    await this.dataSource.transaction((manager) =>
      this.products.removeProduct(product.id, this.clock.now(), manager),
    );
  }

  /** A live product of a space the caller administers; anything else is the one 404. */
  private async adminProduct(
    principal: RequestPrincipal,
    pathId: string,
    productId: string,
  ): Promise<StoreProduct> {
    const { space } = await this.access.resolveAdmin(pathId, principal.did);
    const id = parseEntityId('product', productId);
    const product = id ? await this.products.liveProduct(id, space.id) : null;
    if (!product) throw notFound();
    return product;
  }
}
