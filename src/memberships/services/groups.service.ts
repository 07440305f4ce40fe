import { Injectable } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { Clock } from '../../common/clock/clock';
import { notFound } from '../../common/errors/api-error';
import { formatEntityId, newUuid, parseEntityId } from '../../common/ids/entity-id';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { closeKeysetPage, KeysetColumn, openKeysetPage } from '../../common/pagination/keyset';
import { Page } from '../../common/pagination/page';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { OriginIdentities } from '../../protocol';
import { SpaceView, SpaceDirectoryService, SpaceMembershipReadsService } from '../../spaces';
import { GroupMemberRecord, GroupRecord } from '../dto/membership-records.dto';
import { GroupRequest } from '../dto/membership-requests.dto';
import { SpaceGroup } from '../entities/space-group.entity';
import { MembershipsRepository } from '../memberships.repository';
import { toGroupRecord } from './groups.presenter';

const DID_PATTERN = /^did:plat:[2346789acdefhknrtvz]{31}$/;
const FOREIGN_KEY_VIOLATION = '23503';

/** The admin listing's order: by id (`MembershipsRepository.groupsPage`). */
const GROUPS_ORDER: KeysetColumn[] = [{ expression: 'id', direction: 'ASC' }];

/**
 * Groups administration (design.md §9): admins of the space create, change and delete groups and
 * put active members of the space into them. Access as on the other admin routes: a non-admin who
 * reaches the space gets 403, a non-member of a space without a public profile the one 404.
 */
@Injectable()
export class GroupsService {
  constructor(
    private readonly memberships: MembershipsRepository,
    private readonly spaces: SpaceMembershipReadsService,
    private readonly directory: SpaceDirectoryService,
    private readonly origin: OriginIdentities,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
  ) {}

  /** Every group of the space, oldest first (admins). */
  async list(
    principal: RequestPrincipal,
    pathId: string,
    query: PaginationQueryDto,
  ): Promise<Page<GroupRecord>> {
    const space = await this.spaces.adminSpace(pathId, principal.did);
    const keyset = {
      listing: `admin-space-groups`,
      columns: GROUPS_ORDER,
      keyOf: (group: SpaceGroup) => [group.id],
      page: query,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    const page = closeKeysetPage(seek, await this.memberships.groupsPage(space.id, seek), keyset);
    const memberCounts = await this.memberships.memberCounts(page.rows.map((group) => group.id));
    return {
      items: page.rows.map((group) => toGroupRecord(group, memberCounts.get(group.id) ?? 0)),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
    };
  }

  /** A new group with its own identity chain signed by the origin key (design.md §1). */
  async create(principal: RequestPrincipal, pathId: string, request: GroupRequest): Promise<GroupRecord> {
    const space = await this.spaces.adminSpace(pathId, principal.did);
    const identity = await this.origin.createIdentity();
    const id = newUuid();
    await this.memberships.insertGroup({
      id,
      spaceId: space.id,
      did: identity.did,
      name: request.name,
      description: request.description || null,
      color: request.color ?? null,
    });
    return this.record(await this.groupById(id));
  }

  /** Replaces the name; description and color change when sent (null clears them). */
  async update(
    principal: RequestPrincipal,
    pathId: string,
    groupId: string,
    request: GroupRequest,
  ): Promise<GroupRecord> {
    const { group } = await this.adminGroup(principal, pathId, groupId);
    await this.memberships.updateGroup(group.id, {
      name: request.name,
      ...(request.description !== undefined ? { description: request.description || null } : {}),
      ...(request.color !== undefined ? { color: request.color } : {}),
    });
    return this.record(await this.groupById(group.id));
  }

  /** Deletes the group and, with it, every membership of it. */
  async remove(principal: RequestPrincipal, pathId: string, groupId: string): Promise<void> {
    const { group } = await this.adminGroup(principal, pathId, groupId);
    await this.memberships.deleteGroup(group.id);
  }

  /**
   * Puts an active member of the space into the group; repeating it changes nothing. Anyone who is
   * not an active member of the space (never joined, left, removed, banned, invited) is the 404.
   */
  async addMember(
    principal: RequestPrincipal,
    pathId: string,
    groupId: string,
    memberDid: string,
  ): Promise<GroupMemberRecord> {
    const { group } = await this.adminGroup(principal, pathId, groupId);
    if (!DID_PATTERN.test(memberDid)) throw notFound();
    const role = await this.directory.roleOf(group.spaceId, memberDid);
    if (!role) throw notFound();
    try {
      await this.memberships.insertMember(group.id, memberDid, group.spaceId, this.clock.now());
    } catch (error) {
      // The group was deleted meanwhile.
      if (isForeignKeyViolation(error)) throw notFound();
      throw error;
    }
    const membership = await this.memberships.findMembership(group.id, memberDid);
    if (!membership) throw notFound();
    return {
      groupId: formatEntityId('group', group.id),
      did: memberDid,
      role,
      joinedAt: membership.joinedAt.toISOString(),
    };
  }

  /** Takes the person out of the group; someone not in it is the 404. */
  async removeMember(
    principal: RequestPrincipal,
    pathId: string,
    groupId: string,
    memberDid: string,
  ): Promise<void> {
    const { group } = await this.adminGroup(principal, pathId, groupId);
    if (!DID_PATTERN.test(memberDid)) throw notFound();
    if (!(await this.memberships.deleteMember(group.id, memberDid))) throw notFound();
  }

  private async adminGroup(
    principal: RequestPrincipal,
    pathId: string,
    groupId: string,
  ): Promise<{ space: SpaceView; group: SpaceGroup }> {
    const space = await this.spaces.adminSpace(pathId, principal.did);
    const id = parseEntityId('group', groupId);
    const group = id ? await this.memberships.findGroup({ id, spaceId: space.id }) : null;
    if (!group) throw notFound();
    return { space, group };
  }

  /** The group just written (it exists: the write succeeded). */
  private async groupById(id: string): Promise<SpaceGroup> {
    const group = await this.memberships.findGroup({ id });
    if (!group) throw new Error(`Group ${id} not found after its write`);
    return group;
  }

  private async record(group: SpaceGroup): Promise<GroupRecord> {
    const memberCounts = await this.memberships.memberCounts([group.id]);
    return toGroupRecord(group, memberCounts.get(group.id) ?? 0);
  }
}

function isForeignKeyViolation(error: unknown): boolean {
  return (
    error instanceof QueryFailedError &&
    (error as QueryFailedError & { code?: string }).code === FOREIGN_KEY_VIOLATION
  );
}
