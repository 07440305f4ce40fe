import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { invalidRequest, notFound } from '../../common/errors/api-error';
import { LinkPreviewsService } from '../../link-previews';
import { MediaLookupService } from '../../media';
import { DomainFetcherService } from './domain-fetcher.service';
import { DomainCheckOutcome, DomainVerificationRecord } from '../dto/public-space-records.dto';
import { DomainVerificationRequest, SiteRequest } from '../dto/site-requests.dto';
import { SpaceRecord } from '../dto/space-records.dto';
import { Space } from '../entities/space.entity';
import { SpacesRepository } from '../repositories/spaces.repository';
import { roleOf } from '../domain/space-context';
import { SpaceAccessService } from './space-access.service';
import { SpaceProfileChainService } from './space-profile-chain.service';
import { toSpaceRecord } from './space-records.presenter';
import { DID_PATTERN } from '../domain/space-rules';

/** Where a domain names the DID it belongs to: one DID as plain text. */
export const PLAT_DID_PATH = '/.well-known/plat-did';

/** The site settings and the external domain of a space (design.md §9; admins). */
@Injectable()
export class SpaceSiteService {
  private readonly logger = new Logger(SpaceSiteService.name);

  constructor(
    private readonly spaces: SpacesRepository,
    private readonly access: SpaceAccessService,
    private readonly profileChain: SpaceProfileChainService,
    private readonly fetcher: DomainFetcherService,
    private readonly dataSource: DataSource,
    private readonly media: MediaLookupService,
    private readonly previews: LinkPreviewsService,
  ) {}

  /** Changes the members sent (null clears category and header); naming none is 400. */
  async updateSite(principal: RequestPrincipal, pathId: string, request: SiteRequest): Promise<SpaceRecord> {
    const changes: Partial<Space> = {};
    if (request.siteMode !== undefined) changes.siteMode = request.siteMode;
    if (request.subscribeEnabled !== undefined) changes.subscribeEnabled = request.subscribeEnabled;
    if (request.category !== undefined) changes.category = request.category;
    if (request.discoveryOptIn !== undefined) changes.discoveryOptIn = request.discoveryOptIn;
    if (request.links !== undefined) {
      changes.links = request.links.map((link) => ({
        url: link.url,
        label: link.label?.trim() || null,
        description: link.description?.trim() || null,
      }));
    }
    if (Object.keys(changes).length === 0 && request.headerId === undefined) {
      throw invalidRequest('Invalid request', [
        {
          path: '',
          message:
            'name at least one of siteMode, subscribeEnabled, category, links, discoveryOptIn, headerId',
        },
      ]);
    }
    const context = await this.access.resolveAdmin(pathId, principal.did);
    const headerMediaId = await this.media.ownImage('headerId', request.headerId, principal.did);
    if (headerMediaId !== undefined) changes.headerMediaId = headerMediaId;
    await this.dataSource.transaction(async (manager) => {
      await this.spaces.update(context.space.id, changes, manager);
      if (changes.links) await this.profileChain.enqueue(manager, context.space.id);
    });
    if (changes.links) await this.profileChain.settle(context.space.id);
    // After the commit: the links' pages are queued for resolution, with no statement
    // (docs/decisions/0157-link-resolution-queued-after-the-write.md).
    if (changes.links && changes.links.length > 0)
      this.previews.resolveSoon(changes.links.map((link) => link.url));
    const space = await this.spaces.findById(context.space.id);
    if (!space) throw notFound();
    return toSpaceRecord(space, roleOf(context));
  }

  /**
   * Fetches `https://<domain>/.well-known/plat-did`. The domain becomes `verifiedDomain` when the
   * document names the space's DID; a domain that answers without naming it clears the value; one
   * that does not answer keeps it (when it is the verified one) — api-spec.md: "A domain that stops
   * responding keeps its value". The domain checked is remembered for a later check without body.
   */
  async verifyDomain(
    principal: RequestPrincipal,
    pathId: string,
    request: DomainVerificationRequest,
  ): Promise<DomainVerificationRecord> {
    const context = await this.access.resolveAdmin(pathId, principal.did);
    const space = context.space;
    const domain = request.domain ?? space.claimedDomain;
    if (!domain) {
      throw invalidRequest('Invalid request', [
        { path: 'domain', message: 'domain is required: no domain was submitted before' },
      ]);
    }
    const status = await this.check(domain, space.did);
    const verifiedDomain =
      status === 'verified'
        ? domain
        : status === 'unreachable' && space.verifiedDomain === domain
          ? domain
          : null;
    await this.spaces.update(space.id, { claimedDomain: domain, verifiedDomain });
    return { domain, status, verifiedDomain };
  }

  private async check(domain: string, did: string): Promise<DomainCheckOutcome> {
    let answer;
    try {
      answer = await this.fetcher.get(domain, PLAT_DID_PATH);
    } catch (error) {
      this.logger.log(`domain verification of ${domain}: no answer (${(error as Error).message})`);
      return 'unreachable';
    }
    // A server error is no statement about the domain's identity: treated like no answer.
    if (answer.status >= 500 || answer.status === 429) return 'unreachable';
    const named = answer.body.trim();
    return answer.status === 200 && !answer.truncated && DID_PATTERN.test(named) && named === did
      ? 'verified'
      : 'unverified';
  }
}
