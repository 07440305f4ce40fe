import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { invalidRequest, notFound, ValidationDetail } from '../../common/errors/api-error';
import { newUuid, parseEntityId } from '../../common/ids/entity-id';
import { DomainEvents } from '../../infrastructure/events/domain-events.service';
import { SpaceAccessService } from '../../spaces';
import { ReleasePublished } from '../events/store.events';
import { MediaLookupService } from '../../media';
import { firstFreeSlug, slugCandidatesPattern, slugFrom } from '../domain/store-rules';
import { ReleaseAdminRecord } from '../dto/store-records.dto';
import { ReleaseRequest } from '../dto/store-requests.dto';
import { StoredCredit, StoreRelease } from '../entities/store-release.entity';
import { ReleasesRepository } from '../repositories/releases.repository';
import { SlugsRepository } from '../repositories/slugs.repository';
import { StoreTicketsService } from './store-tickets.service';
import { toReleaseAdminRecord } from './store.presenter';
import { DERIVED_SLUG_ATTEMPTS, UniqueWritesService } from './unique-writes.service';

/**
 * The admins' release writes (design.md §9, §13). `productIds` name live products of the same
 * space, each once; the release row and its product list are written in one transaction.
 * `publishedAt` is set the first time a release is published and never moves after.
 */
@Injectable()
export class ReleasesService {
  constructor(
    private readonly releases: ReleasesRepository,
    private readonly slugs: SlugsRepository,
    private readonly uniqueWrites: UniqueWritesService,
    private readonly access: SpaceAccessService,
    private readonly catalog: StoreTicketsService,
    private readonly clock: Clock,
    private readonly media: MediaLookupService,
    private readonly events: DomainEvents,
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
    const release = await this.uniqueWrites.run(
      async (manager) => {
        const base = slugFrom(request.title, 'release');
        const slug =
          request.slug ??
          firstFreeSlug(
            base,
            await this.slugs.takenSlugs('releases', space.id, base, slugCandidatesPattern(base), manager),
          );
        await this.releases.insertRelease(
          {
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
          },
          manager,
        );
        await this.releases.replaceProductsOfRelease(id, productIds, manager);
        if (request.published) await this.events.emit(manager, new ReleasePublished(space.id, id));
        return this.releases.releaseById(id, manager);
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
    const written = await this.uniqueWrites.run(async (manager) => {
      await this.releases.updateRelease(
        release.id,
        {
          title: request.title,
          published: request.published,
          ...(request.published && !release.publishedAt ? { publishedAt: this.clock.now() } : {}),
          ...(request.slug !== undefined ? { slug: request.slug } : {}),
          ...(request.description !== undefined ? { description: request.description } : {}),
          ...(coverMediaId !== undefined ? { coverMediaId } : {}),
          ...(request.credits !== undefined ? { credits: credits(request) } : {}),
        },
        manager,
      );
      if (productIds) await this.releases.replaceProductsOfRelease(release.id, productIds, manager);
      if (request.published && !release.published) {
        await this.events.emit(manager, new ReleasePublished(release.spaceId, release.id));
      }
      return this.releases.releaseById(release.id, manager);
    });
    return toReleaseAdminRecord(
      written,
      productIds ?? (await this.releases.productIdsOfRelease(release.id)),
      await this.media.imageObject(written.coverMediaId),
    );
  }

  async remove(principal: RequestPrincipal, pathId: string, releaseId: string): Promise<void> {
    const release = await this.adminRelease(principal, pathId, releaseId);
    await this.releases.updateRelease(release.id, { deletedAt: this.clock.now() });
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

  /** A live release of a space the caller administers; anything else is the one 404. */
  private async adminRelease(
    principal: RequestPrincipal,
    pathId: string,
    releaseId: string,
  ): Promise<StoreRelease> {
    const { space } = await this.access.resolveAdmin(pathId, principal.did);
    const id = parseEntityId('release', releaseId);
    const release = id ? await this.releases.liveRelease(id, space.id) : null;
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
