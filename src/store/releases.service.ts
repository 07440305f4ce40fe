import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull, Repository } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { RequestPrincipal } from '../common/auth/request-authenticator';
import { invalidRequest, notFound, ValidationDetail } from '../common/errors/api-error';
import { newUuid, parseEntityId } from '../common/ids/entity-id';
import { SpaceAccess } from '../spaces';
import { MediaLookup } from '../media';
import { ReleaseAdminRecord } from './dto/store-records.dto';
import { ReleaseRequest } from './dto/store-requests.dto';
import { StoreReleaseProduct } from './entities/store-release-product.entity';
import { StoredCredit, StoreRelease } from './entities/store-release.entity';
import { toReleaseAdminRecord } from './store-records';
import { slugFrom } from './store-rules';
import { freeSlug } from './store-slugs';
import { TicketCatalog } from './ticket-catalog';
import { DERIVED_SLUG_ATTEMPTS, writeUnique } from './unique-writes';

/**
 * The admins' release writes (design.md §9, §13). `productIds` name live products of the same
 * space, each once; the release row and its product list are written in one transaction.
 * `publishedAt` is set the first time a release is published and never moves after.
 */
@Injectable()
export class ReleasesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(StoreRelease) private readonly releases: Repository<StoreRelease>,
    @InjectRepository(StoreReleaseProduct) private readonly releaseProducts: Repository<StoreReleaseProduct>,
    private readonly access: SpaceAccess,
    private readonly catalog: TicketCatalog,
    private readonly clock: Clock,
    private readonly media: MediaLookup,
  ) {}

  async create(
    principal: RequestPrincipal,
    pathId: string,
    request: ReleaseRequest,
  ): Promise<ReleaseAdminRecord> {
    const { space } = await this.access.resolveAdmin(pathId, principal.did);
    const coverMediaId = (await this.media.ownImage('coverId', request.coverId, principal.did)) ?? null;
    const productIds = await this.productsOf(space.id, request.productIds ?? []);
    const id = newUuid();
    const release = await writeUnique(
      this.dataSource,
      async (manager) => {
        const slug =
          request.slug ??
          (await freeSlug(manager, StoreRelease, space.id, slugFrom(request.title, 'release')));
        await manager.insert(StoreRelease, {
          id,
          spaceId: space.id,
          slug,
          title: request.title,
          description: request.description ?? null,
          coverMediaId,
          credits: credits(request),
          published: request.published,
          publishedAt: request.published ? this.clock.now() : null,
          deletedAt: null,
        });
        await writeProducts(manager, id, productIds);
        return manager.findOneByOrFail(StoreRelease, { id });
      },
      request.slug === undefined ? DERIVED_SLUG_ATTEMPTS : 1,
    );
    return toReleaseAdminRecord(release, productIds, await this.media.imageObject(release.coverMediaId));
  }

  /**
   * Replaces title and `published`; slug, description, credits and productIds when sent (null
   * clears the description).
   */
  async update(
    principal: RequestPrincipal,
    pathId: string,
    releaseId: string,
    request: ReleaseRequest,
  ): Promise<ReleaseAdminRecord> {
    const release = await this.adminRelease(principal, pathId, releaseId);
    const coverMediaId = await this.media.ownImage('coverId', request.coverId, principal.did);
    const productIds =
      request.productIds !== undefined ? await this.productsOf(release.spaceId, request.productIds) : null;
    const written = await writeUnique(this.dataSource, async (manager) => {
      await manager.update(
        StoreRelease,
        { id: release.id },
        {
          title: request.title,
          published: request.published,
          ...(request.published && !release.publishedAt ? { publishedAt: this.clock.now() } : {}),
          ...(request.slug !== undefined ? { slug: request.slug } : {}),
          ...(request.description !== undefined ? { description: request.description } : {}),
          ...(coverMediaId !== undefined ? { coverMediaId } : {}),
          ...(request.credits !== undefined ? { credits: credits(request) } : {}),
        },
      );
      if (productIds) await writeProducts(manager, release.id, productIds);
      return manager.findOneByOrFail(StoreRelease, { id: release.id });
    });
    return toReleaseAdminRecord(
      written,
      productIds ?? (await this.productIdsOf(release.id)),
      await this.media.imageObject(written.coverMediaId),
    );
  }

  async remove(principal: RequestPrincipal, pathId: string, releaseId: string): Promise<void> {
    const release = await this.adminRelease(principal, pathId, releaseId);
    await this.releases.update({ id: release.id }, { deletedAt: this.clock.now() });
  }

  /** The database ids of `productIds`, or a 400 naming each item that is not a live product of the space. */
  private async productsOf(spaceId: string, wireIds: string[]): Promise<string[]> {
    const resolved = await this.catalog.liveProductIds(spaceId, wireIds);
    const details: ValidationDetail[] = [];
    const seen = new Set<string>();
    resolved.forEach((uuid, index) => {
      if (!uuid) details.push({ path: `productIds.${index}`, message: 'must name a product of this space' });
      else if (seen.has(uuid))
        details.push({ path: `productIds.${index}`, message: 'names a product twice' });
      else seen.add(uuid);
    });
    if (details.length > 0) throw invalidRequest('Invalid request', details);
    return resolved as string[];
  }

  private async productIdsOf(releaseId: string): Promise<string[]> {
    const rows = await this.releaseProducts.find({ where: { releaseId }, order: { position: 'ASC' } });
    return rows.map((row) => row.productId);
  }

  /** A live release of a space the caller administers; anything else is the one 404. */
  private async adminRelease(
    principal: RequestPrincipal,
    pathId: string,
    releaseId: string,
  ): Promise<StoreRelease> {
    const { space } = await this.access.resolveAdmin(pathId, principal.did);
    const id = parseEntityId('release', releaseId);
    const release = id
      ? await this.releases.findOne({ where: { id, spaceId: space.id, deletedAt: IsNull() } })
      : null;
    if (!release) throw notFound();
    return release;
  }
}

const credits = (request: ReleaseRequest): StoredCredit[] =>
  (request.credits ?? []).map((credit) => ({
    name: credit.name,
    role: credit.role,
    did: credit.did ?? null,
  }));

async function writeProducts(manager: EntityManager, releaseId: string, productIds: string[]): Promise<void> {
  await manager.delete(StoreReleaseProduct, { releaseId });
  if (productIds.length === 0) return;
  await manager.insert(
    StoreReleaseProduct,
    productIds.map((productId, position) => ({ releaseId, productId, position })),
  );
}
