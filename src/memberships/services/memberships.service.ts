import type { ResolvedLinkPage } from '../../common/dto/profile-link.dto';
import { Injectable } from '@nestjs/common';
import { MediaLookupService } from '../../media';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { notFound } from '../../common/errors/api-error';
import { formatEntityId, parseEntityId } from '../../common/ids/entity-id';
import { bothDirections, CursorCodec } from '../../common/pagination/cursor-codec';
import { closeKeysetPage, KeysetColumn, openKeysetPage } from '../../common/pagination/keyset';
import {
  SpaceView,
  SpaceDirectoryService,
  ActiveMembership,
  SpaceMembershipReadsService,
} from '../../spaces';
import {
  GroupMembershipItem,
  GroupMembershipListing,
  SpaceMembershipItem,
  SpaceMembershipListing,
} from '../dto/membership-records.dto';
import { GroupMembershipsQuery, MembershipsQuery } from '../dto/membership-requests.dto';
import { GroupMembership } from '../entities/group-membership.entity';
import { MembershipsRepository } from '../memberships.repository';

const GROUP_LISTING = 'group-memberships';
const DID_PATTERN = /^did:plat:[2346789acdefhknrtvz]{31}$/;

/** The group listing's order: joined into the group, then group id (`MembershipsRepository`). */
const GROUP_ORDER: KeysetColumn[] = [
  { expression: 'joined_at', direction: 'ASC' },
  { expression: 'group_id', direction: 'ASC' },
];

/**
 * The credential-gated membership reads (api-spec.md "Membership records", "Credential-gated
 * reads"): the acting person's active memberships of live spaces, public or private, and their
 * groups inside those spaces. Never anyone else's.
 */
@Injectable()
export class MembershipsService {
  constructor(
    private readonly memberships: MembershipsRepository,
    private readonly spaces: SpaceMembershipReadsService,
    private readonly directory: SpaceDirectoryService,
    private readonly cursors: CursorCodec,
    private readonly media: MediaLookupService,
  ) {}

  /** GET /v1/memberships: joinedAt ascending, space id as tiebreak; totalCount under the filter. */
  async list(principal: RequestPrincipal, query: MembershipsQuery): Promise<SpaceMembershipListing> {
    const roles = query.role ?? null;
    const [page, totalCount] = await Promise.all([
      this.spaces.listActive(principal.did, roles, query),
      this.spaces.countActive(principal.did, roles),
    ]);
    const [groupCounts, avatars, pages] = await Promise.all([
      this.memberships.groupCounts(
        principal.did,
        page.rows.map((row) => row.space.id),
      ),
      this.media.imageUrls(page.rows.map((row) => row.space.avatarMediaId)),
      this.spaces.linkPagesOf(page.rows.map((row) => row.space)),
    ]);
    return {
      items: page.rows.map((row) => this.spaceItem(row, groupCounts.get(row.space.id) ?? 0, avatars, pages)),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
      totalCount,
    };
  }

  /** GET /v1/membership/{space}: the one 404 when not a member or no such space. */
  async get(principal: RequestPrincipal, reference: string): Promise<SpaceMembershipItem> {
    const membership = await this.spaces.activeIn(principal.did, reference);
    if (!membership) throw notFound();
    const [groupCounts, avatars, pages] = await Promise.all([
      this.memberships.groupCounts(principal.did, [membership.space.id]),
      this.media.imageUrls([membership.space.avatarMediaId]),
      this.spaces.linkPagesOf([membership.space]),
    ]);
    return this.spaceItem(membership, groupCounts.get(membership.space.id) ?? 0, avatars, pages);
  }

  /**
   * GET /v1/group-memberships: the person's groups inside live spaces where they are still an
   * active member (with a role among `role`), joinedAt (into the group) ascending, group id as
   * tiebreak. `space` scopes to one space; an unknown or unjoined one lists nothing.
   */
  async listGroups(
    principal: RequestPrincipal,
    query: GroupMembershipsQuery,
  ): Promise<GroupMembershipListing> {
    const roles = query.role && query.role.length > 0 ? query.role : null;
    let spaceId: string | null = null;
    if (query.space !== undefined) {
      const space = await this.directory.findByReference(query.space);
      if (!space) {
        // Nothing to list, but the pagination input is still checked as on any other page.
        if (query.after && query.before) throw bothDirections();
        if (query.after) this.cursors.decode(GROUP_LISTING, query.after, 'after');
        if (query.before) this.cursors.decode(GROUP_LISTING, query.before, 'before');
        return { items: [], nextCursor: null, previousCursor: null, totalCount: 0 };
      }
      spaceId = space.id;
    }
    const filter = { roles, spaceId };
    const keyset = {
      listing: GROUP_LISTING,
      columns: GROUP_ORDER,
      keyOf: (row: GroupMembership) => [row.joinedAt.toISOString(), row.groupId],
      page: query,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    const [rows, totalCount] = await Promise.all([
      this.memberships.groupMembershipsPage(principal.did, filter, seek),
      this.memberships.countGroupMemberships(principal.did, filter),
    ]);
    const page = closeKeysetPage(seek, rows, keyset);
    return {
      items: await this.groupItems(principal.did, page.rows),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
      totalCount,
    };
  }

  /** GET /v1/group-membership/{group}: `{group}` is the entity id or the DID; the one 404 on a miss. */
  async getGroup(principal: RequestPrincipal, reference: string): Promise<GroupMembershipItem> {
    const id = parseEntityId('group', reference);
    const group = id
      ? await this.memberships.findGroup({ id })
      : DID_PATTERN.test(reference)
        ? await this.memberships.findGroup({ did: reference })
        : null;
    const membership = group ? await this.memberships.findMembership(group.id, principal.did) : null;
    if (!group || !membership) throw notFound();
    membership.group = group;
    const [item] = await this.groupItems(principal.did, [membership]);
    if (!item) throw notFound();
    return item;
  }

  /** Items for group memberships; rows whose space the person is no longer active in are dropped. */
  private async groupItems(did: string, rows: GroupMembership[]): Promise<GroupMembershipItem[]> {
    const spaceIds = [...new Set(rows.map((row) => row.spaceId))];
    const [spaces, roles, memberCounts] = await Promise.all([
      this.directory.findMemberSpaces(did, spaceIds),
      this.spaces.rolesIn(did, spaceIds),
      this.memberships.memberCounts(rows.map((row) => row.groupId)),
    ]);
    const spaceById = new Map<string, SpaceView>(spaces.map((space) => [space.id, space]));
    return rows.flatMap((row) => {
      const space = spaceById.get(row.spaceId);
      const role = roles.get(row.spaceId);
      if (!space || !role || !row.group) return [];
      const group = row.group;
      return [
        {
          group: {
            id: formatEntityId('group', group.id),
            did: group.did,
            name: group.name,
            description: group.description,
            avatarUrl: null,
            color: group.color,
            memberCount: memberCounts.get(group.id) ?? 0,
            spaceId: formatEntityId('space', space.id),
            spaceDid: space.did,
          },
          role,
          joinedAt: row.joinedAt.toISOString(),
        },
      ];
    });
  }

  private spaceItem(
    membership: ActiveMembership,
    groupCount: number,
    avatars: Map<string, string>,
    pages: ReadonlyMap<string, ResolvedLinkPage>,
  ): SpaceMembershipItem {
    const avatarId = membership.space.avatarMediaId;
    return {
      space: this.spaces.spaceBlock(membership.space, (avatarId && avatars.get(avatarId)) || null, pages),
      role: membership.role,
      groupCount,
      joinedAt: membership.joinedAt.toISOString(),
    };
  }
}
