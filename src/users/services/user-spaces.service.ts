import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { Clock } from '../../common/clock/clock';
import { conflict, forbidden, invalidRequest, notFound } from '../../common/errors/api-error';
import { parseEntityId } from '../../common/ids/entity-id';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { closeKeysetPage, KeysetColumn, openKeysetPage } from '../../common/pagination/keyset';
import { Page } from '../../common/pagination/page';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { SpaceView, SpaceDirectoryService } from '../../spaces';
import { MediaLookupService } from '../../media';
import {
  MAX_PINS,
  PinnedSpaceCard,
  PinSpaceRequest,
  PinsResponse,
  ReplacePinsRequest,
  UserSpaceItem,
} from '../dto/pins.dto';
import { UserSpacePin } from '../entities/user-space-pin.entity';
import { User } from '../entities/user.entity';
import { UsersRepository, UserSpaceRow } from '../users.repository';
import { avatarOf, rowToItem, toItem } from './user-spaces.presenter';

/** Spaces embedded in the single profile fetch after the pinned ones (api-spec.md "Limits"). */
export const EMBEDDED_UNPINNED_SPACES = 20;

const iso = (date: Date | string) => new Date(date).toISOString();

/**
 * The order of a user's spaces as the listing's cursor holds it: pinned first in the user's order,
 * then most recently joined (`UsersRepository.spacesPage` seeks and sorts by it).
 */
const SPACES_ORDER: KeysetColumn[] = [
  { expression: 'pin group', direction: 'ASC' },
  { expression: 'pin position', direction: 'ASC' },
  { expression: 'joined_at', direction: 'DESC' },
  { expression: 'id', direction: 'DESC' },
];

/**
 * Pins (design.md §2: PUT /profile/pins, PUT and DELETE /spaces/{id}/pin) and the public reads of
 * a user's spaces. A pin shows only while its space is live and the user an active member; public
 * reads show only spaces with a public profile.
 */
@Injectable()
export class UserSpacesService {
  constructor(
    private readonly users: UsersRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly directory: SpaceDirectoryService,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
    private readonly media: MediaLookupService,
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
      await this.users.lockUser(user.id, manager);
      const existing = new Map((await this.users.pinsOf(user.id, manager)).map((pin) => [pin.spaceId, pin]));
      const now = this.clock.now();
      const next = spaceIds.map((spaceId, position) => {
        const kept = existing.get(spaceId);
        return Object.assign(new UserSpacePin(), {
          userId: user.id,
          spaceId,
          position,
          pinMessage: kept?.pinMessage ?? null,
          pinnedAt: kept?.pinnedAt ?? now,
        });
      });
      await this.users.replacePins(user.id, next, manager);
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
      await this.users.lockUser(user.id, manager);
      const existing = await this.users.pinOf(user.id, space.id, manager);
      const message = request.pinMessage === undefined ? undefined : request.pinMessage || null;
      if (existing) {
        if (message !== undefined && message !== existing.pinMessage) {
          existing.pinMessage = message;
          await this.users.updatePinMessage(user.id, space.id, message, manager);
        }
        return existing;
      }
      if ((await this.users.countShownPins(user, manager)) >= MAX_PINS) {
        throw conflict(`At most ${MAX_PINS} pinned spaces`);
      }
      const last = await this.users.lastPinPosition(user.id, manager);
      const created = Object.assign(new UserSpacePin(), {
        userId: user.id,
        spaceId: space.id,
        position: last === null ? 0 : last + 1,
        pinMessage: message ?? null,
        pinnedAt: this.clock.now(),
      });
      await this.users.insertPin(created, manager);
      return created;
    });
    return toItem(space, pin, await this.avatarUrl(space));
  }

  /** DELETE /spaces/{id}/pin: idempotent; answers the item, now unpinned. */
  async unpin(principal: RequestPrincipal, spaceId: string): Promise<UserSpaceItem> {
    const { user, space } = await this.resolveMemberSpace(principal, spaceId);
    await this.users.deletePin(user.id, space.id);
    return toItem(space, null, await this.avatarUrl(space));
  }

  private async avatarUrl(space: SpaceView): Promise<string | null> {
    return avatarOf(space.avatarMediaId, await this.media.imageUrls([space.avatarMediaId]));
  }

  /** Items of rows, their avatars read in one query. */
  private async items(rows: UserSpaceRow[]): Promise<UserSpaceItem[]> {
    const avatars = await this.media.imageUrls(rows.map((row) => row.avatar_media_id));
    return rows.map((row) => rowToItem(row, avatars));
  }

  /** Every shown pinned space, then up to 20 more, most recently joined first (public spaces). */
  async embeddedSpaces(user: User): Promise<UserSpaceItem[]> {
    return this.items(await this.users.embeddedSpaces(user, EMBEDDED_UNPINNED_SPACES));
  }

  /** GET /v1/users/{user}/spaces: pinned first in the user's order, then by join recency. */
  async listSpaces(user: User, query: PaginationQueryDto): Promise<Page<UserSpaceItem>> {
    const keyset = {
      listing: `user-spaces:${user.id}`,
      columns: SPACES_ORDER,
      keyOf: (row: UserSpaceRow) => [
        row.position === null ? 1 : 0,
        row.position === null ? 0 : Number(row.position),
        iso(row.joined_at),
        row.id,
      ],
      page: query,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    const page = closeKeysetPage(seek, await this.users.spacesPage(user, seek), keyset);
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
    const rows = await this.users.pinnedCards(users.map((user) => user.id));
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

  private async requireAccount(did: string): Promise<User> {
    const user = await this.users.account('did', did);
    if (!user) throw notFound();
    return user;
  }
}
