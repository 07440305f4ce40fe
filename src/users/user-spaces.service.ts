import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import { RequestPrincipal } from '../common/auth/request-authenticator';
import { Clock } from '../common/clock/clock';
import { conflict, forbidden, invalidRequest, notFound } from '../common/errors/api-error';
import { formatEntityId, parseEntityId } from '../common/ids/entity-id';
import { CursorCodec } from '../common/pagination/cursor-codec';
import { paginateKeyset } from '../common/pagination/keyset';
import { Page } from '../common/pagination/page';
import { PaginationQueryDto } from '../common/pagination/pagination-query.dto';
import { SpaceView, memberCountSummary, SpaceDirectory } from '../spaces';
import { MediaLookup } from '../media';
import {
  MAX_PINS,
  PinnedSpaceCard,
  PinSpaceRequest,
  PinsResponse,
  ReplacePinsRequest,
  UserSpaceItem,
} from './dto/pins.dto';
import { UserSpacePin } from './entities/user-space-pin.entity';
import { User } from './entities/user.entity';

/** Spaces embedded in the single profile fetch after the pinned ones (api-spec.md "Limits"). */
export const EMBEDDED_UNPINNED_SPACES = 20;

/** One space of a user as the public reads select it. */
interface SpaceRow {
  id: string;
  did: string;
  domain: string;
  display_name: string | null;
  member_count: number;
  position: number | null;
  pin_message: string | null;
  pinned_at: Date | null;
  joined_at: Date;
  avatar_media_id: string | null;
}

const iso = (date: Date | string) => new Date(date).toISOString();

/** A space's count summary through the spaces module's own mapping. */
const countSummary = (memberCount: number): string => memberCountSummary({ memberCount });

/** api-spec.md "User public space item"; `pinMessage` only on pinned items (null when none). */
function toItem(
  space: { id: string; did: string; domain: string; displayName: string | null; memberCount: number },
  pin: { pinMessage: string | null; pinnedAt: Date | string } | null,
  avatarUrl: string | null,
): UserSpaceItem {
  return {
    id: formatEntityId('space', space.id),
    did: space.did,
    domain: space.domain,
    displayName: space.displayName,
    avatarUrl,
    memberCountSummary: countSummary(space.memberCount),
    pinned: pin !== null,
    ...(pin ? { pinMessage: pin.pinMessage } : {}),
    pinnedAt: pin ? iso(pin.pinnedAt) : null,
  };
}

/** A space's avatar URL from the URLs read for its page. */
const avatarOf = (avatarMediaId: string | null, avatars: Map<string, string>): string | null =>
  (avatarMediaId && avatars.get(avatarMediaId)) || null;

const rowToItem = (row: SpaceRow, avatars: Map<string, string>): UserSpaceItem =>
  toItem(
    {
      id: row.id,
      did: row.did,
      domain: row.domain,
      displayName: row.display_name,
      memberCount: Number(row.member_count),
    },
    row.position === null ? null : { pinMessage: row.pin_message, pinnedAt: row.pinned_at! },
    avatarOf(row.avatar_media_id, avatars),
  );

/** The pinned-first, then most recently joined, order of a user's spaces (a total order). */
const PIN_GROUP = 'CASE WHEN "pin"."position" IS NULL THEN 1 ELSE 0 END';
const PIN_POSITION = 'COALESCE("pin"."position", 0)';
const JOINED = '"membership"."joined_at"';
const SPACE_ID = '"space"."id"';

/**
 * Pins (design.md §2: PUT /profile/pins, PUT and DELETE /spaces/{id}/pin) and the public reads of
 * a user's spaces. A pin shows only while its space is live and the user an active member; public
 * reads show only spaces with a public profile.
 */
@Injectable()
export class UserSpacesService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly directory: SpaceDirectory,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
    private readonly media: MediaLookup,
  ) {}

  /** PUT /profile/pins: the list replaces the pins, in its order; kept pins keep message and time. */
  async replacePins(principal: RequestPrincipal, request: ReplacePinsRequest): Promise<PinsResponse> {
    const user = await this.requireAccount(principal.did);
    const spaceIds = request.spaceIds.map((id) => parseEntityId('space', id)!);
    const spaces = new Map(
      (await this.directory.findMemberSpaces(user.did, spaceIds)).map((space) => [space.id, space]),
    );
    const missing = spaceIds.flatMap((id, index) =>
      spaces.has(id)
        ? []
        : [{ path: `spaceIds.${index}`, message: 'not a space where you are an active member' }],
    );
    if (missing.length > 0) throw invalidRequest('Invalid request', missing);
    const pins = await this.dataSource.transaction(async (manager) => {
      await this.lockUser(manager, user.id);
      const repository = manager.getRepository(UserSpacePin);
      const existing = new Map(
        (await repository.find({ where: { userId: user.id } })).map((pin) => [pin.spaceId, pin]),
      );
      const now = this.clock.now();
      const next = spaceIds.map((spaceId, position) => {
        const kept = existing.get(spaceId);
        return repository.create({
          userId: user.id,
          spaceId,
          position,
          pinMessage: kept?.pinMessage ?? null,
          pinnedAt: kept?.pinnedAt ?? now,
        });
      });
      await repository.delete({ userId: user.id });
      if (next.length > 0) await repository.insert(next);
      return next;
    });
    const avatars = await this.media.imageUrls([...spaces.values()].map((space) => space.avatarMediaId));
    return {
      pinned: pins.map((pin) => {
        const space = spaces.get(pin.spaceId)!;
        return toItem(space, pin, avatarOf(space.avatarMediaId, avatars));
      }),
    };
  }

  /** PUT /spaces/{id}/pin: pins at the end of the order, or changes the message of a pin. */
  async pin(principal: RequestPrincipal, spaceId: string, request: PinSpaceRequest): Promise<UserSpaceItem> {
    const { user, space } = await this.resolveMemberSpace(principal, spaceId);
    const pin = await this.dataSource.transaction(async (manager) => {
      await this.lockUser(manager, user.id);
      const repository = manager.getRepository(UserSpacePin);
      const existing = await repository.findOne({ where: { userId: user.id, spaceId: space.id } });
      const message = request.pinMessage === undefined ? undefined : request.pinMessage || null;
      if (existing) {
        if (message !== undefined && message !== existing.pinMessage) {
          existing.pinMessage = message;
          await repository.update({ userId: user.id, spaceId: space.id }, { pinMessage: message });
        }
        return existing;
      }
      if ((await this.countShownPins(manager, user)) >= MAX_PINS) {
        throw conflict(`At most ${MAX_PINS} pinned spaces`);
      }
      const last = await repository
        .createQueryBuilder('pin')
        .select('MAX(pin.position)', 'max')
        .where('pin.userId = :userId', { userId: user.id })
        .getRawOne<{ max: number | null }>();
      const created = repository.create({
        userId: user.id,
        spaceId: space.id,
        position: last?.max === null || last?.max === undefined ? 0 : Number(last.max) + 1,
        pinMessage: message ?? null,
        pinnedAt: this.clock.now(),
      });
      await repository.insert(created);
      return created;
    });
    return toItem(space, pin, await this.avatarUrl(space));
  }

  /** DELETE /spaces/{id}/pin: idempotent; answers the item, now unpinned. */
  async unpin(principal: RequestPrincipal, spaceId: string): Promise<UserSpaceItem> {
    const { user, space } = await this.resolveMemberSpace(principal, spaceId);
    await this.dataSource.getRepository(UserSpacePin).delete({ userId: user.id, spaceId: space.id });
    return toItem(space, null, await this.avatarUrl(space));
  }

  private async avatarUrl(space: SpaceView): Promise<string | null> {
    return avatarOf(space.avatarMediaId, await this.media.imageUrls([space.avatarMediaId]));
  }

  /** Items of rows, their avatars read in one query. */
  private async items(rows: SpaceRow[]): Promise<UserSpaceItem[]> {
    const avatars = await this.media.imageUrls(rows.map((row) => row.avatar_media_id));
    return rows.map((row) => rowToItem(row, avatars));
  }

  /** Every shown pinned space, then up to 20 more, most recently joined first (public spaces). */
  async embeddedSpaces(user: User): Promise<UserSpaceItem[]> {
    const [pinned, more] = await Promise.all([
      this.spacesOf(user)
        .andWhere('"pin"."position" IS NOT NULL')
        .orderBy('"pin"."position"', 'ASC')
        .addOrderBy(JOINED, 'DESC')
        .addOrderBy(SPACE_ID, 'DESC')
        .getRawMany<SpaceRow>(),
      this.spacesOf(user)
        .andWhere('"pin"."position" IS NULL')
        .orderBy(JOINED, 'DESC')
        .addOrderBy(SPACE_ID, 'DESC')
        .limit(EMBEDDED_UNPINNED_SPACES)
        .getRawMany<SpaceRow>(),
    ]);
    return this.items([...pinned, ...more]);
  }

  /** GET /v1/users/{user}/spaces: pinned first in the user's order, then by join recency. */
  async listSpaces(user: User, query: PaginationQueryDto): Promise<Page<UserSpaceItem>> {
    const page = await paginateKeyset<SpaceRow, SpaceRow>(
      this.spacesOf(user),
      {
        listing: `user-spaces:${user.id}`,
        columns: [
          { expression: PIN_GROUP, direction: 'ASC' },
          { expression: PIN_POSITION, direction: 'ASC' },
          { expression: JOINED, direction: 'DESC' },
          { expression: SPACE_ID, direction: 'DESC' },
        ],
        keyOf: (row) => [
          row.position === null ? 1 : 0,
          row.position === null ? 0 : Number(row.position),
          iso(row.joined_at),
          row.id,
        ],
        page: query,
        cursors: this.cursors,
      },
      (q) => q.getRawMany<SpaceRow>(),
    );
    return {
      items: await this.items(page.rows),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
    };
  }

  /**
   * The pinned spaces of several users in one query, each list in its user's order: public live
   * spaces where the user is still an active member.
   */
  async pinnedCards(users: User[]): Promise<Map<string, PinnedSpaceCard[]>> {
    const cards = new Map<string, PinnedSpaceCard[]>(users.map((user) => [user.id, []]));
    if (users.length === 0) return cards;
    const rows: {
      user_id: string;
      did: string;
      domain: string;
      display_name: string | null;
      avatar_media_id: string | null;
    }[] = await this.dataSource.query(
      `SELECT "pin"."user_id", "space"."did", "space"."domain", "space"."display_name", "space"."avatar_media_id"
           FROM "user_space_pins" "pin"
           JOIN "users" "user" ON "user"."id" = "pin"."user_id"
           JOIN "live_spaces" "space" ON "space"."id" = "pin"."space_id" AND "space"."is_public"
           JOIN "active_space_members" "membership" ON "membership"."space_id" = "pin"."space_id"
                AND "membership"."member_did" = "user"."did"
          WHERE "pin"."user_id" = ANY($1::uuid[])
          ORDER BY "pin"."user_id", "pin"."position", "pin"."space_id"`,
      [users.map((user) => user.id)],
    );
    const avatars = await this.media.imageUrls(rows.map((row) => row.avatar_media_id));
    for (const row of rows) {
      cards.get(row.user_id)?.push({
        did: row.did,
        domain: row.domain,
        displayName: row.display_name,
        avatarUrl: avatarOf(row.avatar_media_id, avatars),
      });
    }
    return cards;
  }

  /**
   * The user's public live spaces where they are an active member, with their pin if any (over the
   * spaces module's published views: its tables stay its own).
   */
  private spacesOf(user: User): SelectQueryBuilder<SpaceRow> {
    return this.dataSource
      .createQueryBuilder()
      .from<SpaceRow>('active_space_members', 'membership')
      .innerJoin('live_spaces', 'space', '"space"."id" = "membership"."space_id" AND "space"."is_public"')
      .leftJoin(UserSpacePin, 'pin', 'pin.spaceId = "membership"."space_id" AND pin.userId = :userId', {
        userId: user.id,
      })
      .where('"membership"."member_did" = :did', { did: user.did })
      .select(SPACE_ID, 'id')
      .addSelect('"space"."did"', 'did')
      .addSelect('"space"."domain"', 'domain')
      .addSelect('"space"."display_name"', 'display_name')
      .addSelect('"space"."member_count"', 'member_count')
      .addSelect('"space"."avatar_media_id"', 'avatar_media_id')
      .addSelect('"pin"."position"', 'position')
      .addSelect('"pin"."pin_message"', 'pin_message')
      .addSelect('"pin"."pinned_at"', 'pinned_at')
      .addSelect(JOINED, 'joined_at');
  }

  /**
   * The caller's account and a live space where they are an active member. A non-member of a
   * public space is 403; of a space without a public profile (and unknown, malformed) the 404.
   */
  private async resolveMemberSpace(
    principal: RequestPrincipal,
    pathId: string,
  ): Promise<{ user: User; space: SpaceView }> {
    const user = await this.requireAccount(principal.did);
    const id = parseEntityId('space', pathId);
    const space = id ? await this.directory.findById(id) : null;
    if (!space) throw notFound();
    if (!(await this.directory.isActiveMember(space.id, user.did))) {
      if (space.isPublic) throw forbidden('Members only');
      throw notFound();
    }
    return { user, space };
  }

  /** Pins that reads would show (live space, still an active member), public or not. */
  private async countShownPins(manager: EntityManager, user: User): Promise<number> {
    const rows: { n: number }[] = await manager.query(
      `SELECT count(*)::int AS n
         FROM "user_space_pins" "pin"
         JOIN "active_space_members" "membership" ON "membership"."space_id" = "pin"."space_id"
              AND "membership"."member_did" = $2
        WHERE "pin"."user_id" = $1`,
      [user.id, user.did],
    );
    return Number(rows[0].n);
  }

  /** Serializes one user's pin writes (positions and the pin limit stay exact). */
  private async lockUser(manager: EntityManager, userId: string): Promise<void> {
    await manager
      .getRepository(User)
      .createQueryBuilder('user')
      .setLock('pessimistic_write')
      .where('user.id = :userId', { userId })
      .getOne();
  }

  private async requireAccount(did: string): Promise<User> {
    const user = await this.users.findOne({ where: { did } });
    if (!user) throw notFound();
    return user;
  }
}
