import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, SelectQueryBuilder } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { notFound } from '../common/errors/api-error';
import { formatEntityId } from '../common/ids/entity-id';
import { CursorCodec } from '../common/pagination/cursor-codec';
import { paginateKeyset } from '../common/pagination/keyset';
import { Page } from '../common/pagination/page';
import { OriginIdentities } from '../protocol/publishing/origin-identities';
import { SpaceListingQuery } from './dto/site-requests.dto';
import { PublicSpace, SpaceCard, SpaceProtocolBlock } from './dto/public-space-records.dto';
import { Space } from './entities/space.entity';
import { MediaLookup } from '../media/records/media-lookup';
import { memberCountSummary, toProfileLink, toSpaceCard } from './public-records';
import { SpaceCounters } from './space-counters';
import { SpaceDirectory } from './space-directory';
import { readSpaceCardRows } from './space-rows';
import { clampActiveWithinDays, normalizeCategory } from './space-rules';

const DAY_MS = 86_400_000;

/**
 * The anonymous space reads (api-spec.md "Anonymous reads"): the discovery listing and the single
 * fetch. Only spaces with a public profile exist here; everything else is the one 404.
 */
/** What a discovery card needs (plus the keyset columns): the hot listing reads nothing else. */
const CARD_COLUMNS: (keyof Space)[] = [
  'id',
  'did',
  'domain',
  'displayName',
  'description',
  'links',
  'memberCount',
  'verifiedDomain',
  'category',
  'lastActivityAt',
  'avatarMediaId',
];

@Injectable()
export class PublicSpacesService {
  constructor(
    @InjectRepository(Space) private readonly spaces: Repository<Space>,
    private readonly directory: SpaceDirectory,
    private readonly origin: OriginIdentities,
    private readonly counters: SpaceCounters,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
    private readonly media: MediaLookup,
  ) {}

  /**
   * Public live spaces by recent activity (`last_activity_at DESC, id DESC`), a keyset walk over
   * the partial directory indexes. A space with no recorded activity is never listed (the sort key
   * must not be null); every space the API creates has some.
   */
  async list(query: SpaceListingQuery): Promise<Page<SpaceCard>> {
    const page = await paginateKeyset(
      this.listingQuery(query),
      {
        listing: 'public-spaces',
        columns: [
          { expression: 'space.lastActivityAt', direction: 'DESC' },
          { expression: 'space.id', direction: 'DESC' },
        ],
        keyOf: (space: Space) => [space.lastActivityAt!.toISOString(), space.id],
        page: query,
        cursors: this.cursors,
      },
      readSpaceCardRows,
    );
    const avatars = await this.media.imageUrls(page.rows.map((space) => space.avatarMediaId));
    return {
      items: page.rows.map((space) =>
        toSpaceCard(space, space.avatarMediaId ? (avatars.get(space.avatarMediaId) ?? null) : null),
      ),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
    };
  }

  /** Space (single fetch) by subdomain, space id or DID. */
  async get(reference: string): Promise<PublicSpace> {
    const space = await this.directory.findPublicByReference(reference);
    if (!space) throw notFound();
    const [summaries, protocol, images] = await Promise.all([
      this.counters.summaries(space),
      this.protocolBlock(space),
      this.media.imageUrls([space.avatarMediaId, space.headerMediaId]),
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
      links: space.links.map(toProfileLink),
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

  /** The filtered rows of the listing (card columns only), before the keyset (order, seek, limit) is applied. */
  private listingQuery(query: SpaceListingQuery): SelectQueryBuilder<Space> {
    // TypeORM adds `deleted_at IS NULL`: with `is_public` that is the directory indexes' predicate.
    const builder = this.spaces
      .createQueryBuilder('space')
      .select(CARD_COLUMNS.map((column) => `space.${column}`))
      .where('space.isPublic')
      .andWhere('space.lastActivityAt IS NOT NULL');
    if (query.joinMode) builder.andWhere('space.joinMode = :joinMode', { joinMode: query.joinMode });
    const category = query.category === undefined ? null : normalizeCategory(query.category);
    if (category) builder.andWhere('space.category = :category', { category });
    if (query.optedIn !== undefined) {
      builder.andWhere('space.discoveryOptIn = :optedIn', { optedIn: query.optedIn });
    }
    if (query.activeWithinDays !== undefined) {
      const since = this.clock.now().getTime() - clampActiveWithinDays(query.activeWithinDays) * DAY_MS;
      builder.andWhere('space.lastActivityAt >= :since', { since: new Date(since) });
    }
    return builder;
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
