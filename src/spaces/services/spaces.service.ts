import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { Clock } from '../../common/clock/clock';
import { conflict, invalidRequest, notFound } from '../../common/errors/api-error';
import { newUuid } from '../../common/ids/entity-id';
import { MediaErasureService, MediaLookupService } from '../../media';
import { LinkPreviewsService } from '../../link-previews';
import { OriginIdentities } from '../../protocol';
import {
  ClaimDomainRequest,
  CreateSpaceRequest,
  PublicConfigRequest,
  UpdateSpaceRequest,
} from '../dto/space-requests.dto';
import { DomainStatusRecord, SpaceRecord } from '../dto/space-records.dto';
import { isUniqueViolation } from '../repositories/db-errors';
import { SpaceMembershipsRepository } from '../repositories/space-memberships.repository';
import { SpacesRepository } from '../repositories/spaces.repository';
import { Space } from '../entities/space.entity';
import { assertRepeats, roleOf, SpaceContext } from '../domain/space-context';
import { SpaceAccessService } from './space-access.service';
import { SpaceProfileChainService } from './space-profile-chain.service';
import { toSpaceRecord } from './space-records.presenter';
import {
  DEFAULT_DOMAIN_PATTERN,
  defaultDomainOf,
  DomainStatus,
  isClaimableDomainForm,
  RESERVED_DOMAINS,
} from '../domain/space-rules';
import { DomainEvents } from '../../infrastructure/events/domain-events.service';
import { SpaceDeleted } from '../events/membership.events';
import { SpaceVisibilityChanged } from '../events/visibility.events';
import { StoredApplicationQuestion } from '../domain/space-views';

/** Creating, reading, configuring and deleting spaces (the legacy Spaces table). */
@Injectable()
export class SpacesService implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly spaces: SpacesRepository,
    private readonly memberships: SpaceMembershipsRepository,
    private readonly access: SpaceAccessService,
    private readonly origin: OriginIdentities,
    private readonly profileChain: SpaceProfileChainService,
    private readonly clock: Clock,
    private readonly events: DomainEvents,
    private readonly media: MediaLookupService,
    private readonly mediaErasure: MediaErasureService,
    private readonly previews: LinkPreviewsService,
  ) {}

  /** An erasure keeps the media these rows name (docs/decisions/0192-an-erasure-takes-the-persons-media-and-invites.md). */
  onModuleInit(): void {
    this.mediaErasure.registerReferences('spaces', (manager, ids) => this.spaces.mediaNamed(ids, manager));
  }

  /**
   * A new space: an identity chain signed by the origin key, a closed private space, and the
   * creator as its owner (its first admin). Creation is the space's first activity.
   */
  async create(principal: RequestPrincipal, request: CreateSpaceRequest): Promise<SpaceRecord> {
    const identity = await this.origin.createIdentity();
    const id = newUuid();
    const now = this.clock.now();
    await this.dataSource.transaction(async (manager) => {
      await this.spaces.insert(
        {
          id,
          did: identity.did,
          domain: defaultDomainOf(id),
          displayName: request.displayName,
          description: request.description || null,
          avatarMediaId: null,
          headerMediaId: null,
          backgroundMediaId: null,
          links: [],
          joinMode: 'closed',
          isPublic: false,
          siteMode: 'join',
          subscribeEnabled: false,
          category: null,
          discoveryOptIn: false,
          verifiedDomain: null,
          applicationQuestions: [],
          memberCount: 1,
          profileContentId: null,
          profileHeadCid: null,
          profileDocumentCid: null,
          claimedDomain: null,
          lastActivityAt: now,
        },
        manager,
      );
      await this.memberships.insert(
        {
          spaceId: id,
          memberDid: principal.did,
          role: 'owner',
          status: 'active',
          joinedAt: now,
          statusMessage: null,
          bannedAt: null,
          bannedByDid: null,
        },
        manager,
      );
    });
    const space = await this.spaces.findById(id);
    if (!space) throw notFound();
    return toSpaceRecord(space, 'owner');
  }

  /**
   * GET /spaces/{space}: the record, its links with what is resolved of their pages in one batch,
   * no statement without links (docs/decisions/0156-link-cards-read-in-one-batch.md).
   */
  async get(principal: RequestPrincipal, pathId: string): Promise<SpaceRecord> {
    const context = await this.access.resolve(pathId, principal.did);
    const urls = [...new Set(context.space.links.map((link) => link.url))];
    const pages = urls.length > 0 ? await this.previews.previewsOf(urls) : undefined;
    return toSpaceRecord(context.space, roleOf(context), pages);
  }

  /** Omitted members stay; null clears. */
  async update(
    principal: RequestPrincipal,
    pathId: string,
    request: UpdateSpaceRequest,
  ): Promise<SpaceRecord> {
    assertRepeats('id', request.id, pathId);
    const { id: _id, ...fields } = request;
    if (Object.values(fields).every((value) => value === undefined)) {
      throw invalidRequest('Invalid request', [
        {
          path: '',
          message: 'name at least one of displayName, description, avatarId, bannerId, backgroundId',
        },
      ]);
    }
    const context = await this.access.resolveAdmin(pathId, principal.did);
    const changes: Partial<Space> = {};
    if (request.displayName !== undefined) changes.displayName = request.displayName;
    if (request.description !== undefined) changes.description = request.description || null;
    // Ready images of the caller (design.md §11 "Use"), checked together: one 400 lists every bad id.
    const images = {
      avatarId: 'avatarMediaId',
      bannerId: 'headerMediaId',
      backgroundId: 'backgroundMediaId',
    } as const;
    const named = (Object.keys(images) as (keyof typeof images)[]).filter((field) => request[field]);
    const ids = await this.media.ownImages(
      named.map((field) => ({ path: field, mediaId: request[field]! })),
      principal.did,
    );
    named.forEach((field, index) => (changes[images[field]] = ids[index]));
    for (const field of Object.keys(images) as (keyof typeof images)[]) {
      if (request[field] === null) changes[images[field]] = null;
    }
    return this.write(context, changes);
  }

  /** The questions applicants answer (legacy application settings), stored on the space. */
  async storeApplicationQuestions(spaceId: string, questions: StoredApplicationQuestion[]): Promise<void> {
    await this.spaces.update(spaceId, { applicationQuestions: questions });
  }

  /** Soft delete: from now on every route answers 404 and the subdomain is free again. */
  async remove(principal: RequestPrincipal, pathId: string): Promise<void> {
    const context = await this.access.resolveAdmin(pathId, principal.did);
    await this.dataSource.transaction(async (manager) => {
      await this.access.lock(manager, context.space.id);
      await this.spaces.softDelete(context.space.id, manager);
      await this.events.emit(manager, new SpaceDeleted(context.space.id));
      await this.profileChain.enqueue(manager, context.space.id);
      if (context.space.isPublic)
        await this.events.emit(manager, new SpaceVisibilityChanged(context.space.id));
    });
    await this.profileChain.settle(context.space.id);
  }

  async setPublicConfig(
    principal: RequestPrincipal,
    pathId: string,
    request: PublicConfigRequest,
  ): Promise<SpaceRecord> {
    assertRepeats('id', request.id, pathId);
    if (request.joinMode === 'open' && !request.isPublic) {
      throw invalidRequest('Invalid request', [
        { path: 'joinMode', message: 'joinMode open requires isPublic true' },
      ]);
    }
    const context = await this.access.resolveAdmin(pathId, principal.did);
    return this.write(context, { isPublic: request.isPublic, joinMode: request.joinMode });
  }

  async domainStatus(domain: string): Promise<DomainStatusRecord> {
    return { status: await this.statusOf(domain) };
  }

  /** Claims a subdomain; the previous claimed one is released. Claiming the current one is a no-op. */
  async claimDomain(
    principal: RequestPrincipal,
    pathId: string,
    request: ClaimDomainRequest,
  ): Promise<SpaceRecord> {
    assertRepeats('id', request.id, pathId);
    if (DEFAULT_DOMAIN_PATTERN.test(request.domain)) {
      throw invalidRequest('Invalid request', [
        { path: 'domain', message: 'domain must not have the reserved form space-<32 hex>' },
      ]);
    }
    const context = await this.access.resolveAdmin(pathId, principal.did);
    const space = context.space;
    if (space.domain === request.domain) return toSpaceRecord(space, roleOf(context));
    if (RESERVED_DOMAINS.has(request.domain)) throw conflict('Domain taken');
    try {
      return await this.write(context, { domain: request.domain });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('Domain taken');
      throw error;
    }
  }

  /**
   * Writes only the named columns (never a stale member count) and enqueues the profile content
   * chain (published while public, retracted when not) in the same transaction, publishes it after
   * commit, then answers the fresh record.
   */
  private async write(context: SpaceContext, changes: Partial<Space>): Promise<SpaceRecord> {
    await this.dataSource.transaction(async (manager) => {
      await this.spaces.update(context.space.id, changes, manager);
      await this.profileChain.enqueue(manager, context.space.id);
      if (changes.isPublic !== undefined && changes.isPublic !== context.space.isPublic) {
        await this.events.emit(manager, new SpaceVisibilityChanged(context.space.id));
      }
    });
    await this.profileChain.settle(context.space.id);
    const space = await this.spaces.findById(context.space.id);
    if (!space) throw notFound();
    return toSpaceRecord(space, roleOf(context));
  }

  private async statusOf(domain: string): Promise<DomainStatus> {
    if (!isClaimableDomainForm(domain)) return 'invalid';
    if (RESERVED_DOMAINS.has(domain)) return 'taken';
    return (await this.spaces.domainTaken(domain)) ? 'taken' : 'available';
  }
}
