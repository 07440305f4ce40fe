import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { notFound } from '../../common/errors/api-error';
import { formatEntityId } from '../../common/ids/entity-id';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { closeKeysetPage, KeysetColumn, openKeysetPage } from '../../common/pagination/keyset';
import { Page } from '../../common/pagination/page';
import { OriginIdentities } from '../../protocol';
import { SpaceListingQuery } from '../dto/site-requests.dto';
import { PublicSpace, SpaceCard, SpaceProtocolBlock } from '../dto/public-space-records.dto';
import { Space } from '../entities/space.entity';
import { LinkPreviewsService, LinkPreviewView } from '../../link-previews';
import { MediaLookupService } from '../../media';
import { toProfileLinkDto } from '../../common/dto/profile-link.dto';
import { memberCountSummary, toSpaceCard } from './public-space-records.presenter';
import { SpaceCountersService } from './space-counters.service';
import { SpaceDirectoryService } from './space-directory.service';
import { DirectoryFilters } from '../repositories/space-rows';
import { SpacesRepository } from '../repositories/spaces.repository';
import { clampActiveWithinDays, normalizeCategory } from '../domain/space-rules';

const DAY_MS = 86_400_000;

/**
 * The anonymous space reads (api-spec.md "Anonymous reads"): the discovery listing and the single
 * fetch. Only spaces with a public profile exist here; everything else is the one 404.
 */
/** The directory's order (SpacesRepository's `directoryPage` statements seek and sort by it). */
const DIRECTORY_ORDER: KeysetColumn[] = [
  { expression: 'last_activity_at', direction: 'DESC' },
  { expression: 'id', direction: 'DESC' },
];

@Injectable()
export class PublicSpacesService {
  constructor(
    private readonly spaces: SpacesRepository,
    private readonly directory: SpaceDirectoryService,
    private readonly origin: OriginIdentities,
    private readonly counters: SpaceCountersService,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
    private readonly media: MediaLookupService,
    private readonly previews: LinkPreviewsService,
  ) {}

  /**
   * Public live spaces by recent activity (`last_activity_at DESC, id DESC`), a keyset walk over
   * the partial directory indexes. A space with no recorded activity is never listed (the sort key
   * must not be null); every space the API creates has some.
   */
  async list(query: SpaceListingQuery): Promise<Page<SpaceCard>> {
    const keyset = {
      listing: 'public-spaces',
      columns: DIRECTORY_ORDER,
      keyOf: (space: Space) => [space.lastActivityAt!.toISOString(), space.id],
      page: query,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    const rows = await this.spaces.directoryPage(this.directoryFilters(query), seek);
    const page = closeKeysetPage(seek, rows, keyset);
    const [avatars, pages] = await Promise.all([
      this.media.imageUrls(page.rows.map((space) => space.avatarMediaId)),
      this.linkPagesOf(page.rows),
    ]);
    return {
      items: page.rows.map((space) =>
        toSpaceCard(space, space.avatarMediaId ? (avatars.get(space.avatarMediaId) ?? null) : null, pages),
      ),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
    };
  }

  /** Space (single fetch) by subdomain, space id or DID. */
  async get(reference: string): Promise<PublicSpace> {
    const space = await this.directory.findPublicByReference(reference);
    if (!space) throw notFound();
    const [summaries, protocol, images, pages] = await Promise.all([
      this.counters.summaries(space),
      this.protocolBlock(space),
      this.media.imageUrls([space.avatarMediaId, space.headerMediaId]),
      this.linkPagesOf([space]),
    ]);
    const questions =
      space.joinMode === 'application' && space.applicationQuestions.length > 0
        ? space.applicationQuestions.map((q) => ({ question: q.question, isRequired: q.isRequired }))
        : null;
    return {
      id: formatEntityId('space', space.id),
      did: space.did,
      domain: space.domain,
      displayName: space.displayName,
      description: space.description,
      avatarUrl: (space.avatarMediaId && images.get(space.avatarMediaId)) || null,
      headerUrl: (space.headerMediaId && images.get(space.headerMediaId)) || null,
      links: space.links.map((link) => toProfileLinkDto(link, pages.get(link.url))),
      joinMode: space.joinMode,
      siteMode: space.siteMode,
      subscribeEnabled: space.subscribeEnabled,
      memberCountSummary: memberCountSummary(space),
      ...summaries,
      ...(questions ? { applicationQuestions: questions } : {}),
      ...(space.category ? { category: space.category } : {}),
      verifiedDomain: space.verifiedDomain,
      ...(protocol ? { protocol } : {}),
      createdAt: space.createdAt.toISOString(),
    };
  }

  /**
   * What is resolved of the pages of these spaces' site links (docs/decisions/0156-link-cards-read-in-one-batch.md):
   * one batch, no statement without links.
   */
  private async linkPagesOf(spaces: Space[]): Promise<ReadonlyMap<string, LinkPreviewView>> {
    const urls = [...new Set(spaces.flatMap((space) => space.links.map((link) => link.url)))];
    return urls.length > 0 ? this.previews.previewsOf(urls) : new Map();
  }

  /** The listing's filters, normalized (DirectoryFilters, repositories/space-rows.ts). */
  private directoryFilters(query: SpaceListingQuery): DirectoryFilters {
    const category = query.category === undefined ? null : normalizeCategory(query.category);
    return {
      joinMode: query.joinMode,
      category,
      optedIn: query.optedIn,
      activeSince:
        query.activeWithinDays === undefined
          ? undefined
          : new Date(this.clock.now().getTime() - clampActiveWithinDays(query.activeWithinDays) * DAY_MS),
    };
  }

  /** `{headOpCid, profile?}` from the identity chain and the profile content chain; null without a chain. */
  private async protocolBlock(space: Space): Promise<SpaceProtocolBlock | null> {
    const headOpCid = await this.origin.headOf(space.did);
    if (!headOpCid) return null;
    const profile =
      space.profileContentId && space.profileHeadCid
        ? { contentId: space.profileContentId, headOpCid: space.profileHeadCid }
        : null;
    return { headOpCid, ...(profile ? { profile } : {}) };
  }
}
