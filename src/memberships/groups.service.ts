import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { QueryFailedError, Repository } from 'typeorm';
import { RequestPrincipal } from '../common/auth/request-authenticator';
import { Clock } from '../common/clock/clock';
import { notFound } from '../common/errors/api-error';
import { formatEntityId, newUuid, parseEntityId } from '../common/ids/entity-id';
import { CursorCodec } from '../common/pagination/cursor-codec';
import { paginateKeyset } from '../common/pagination/keyset';
import { Page } from '../common/pagination/page';
import { PaginationQueryDto } from '../common/pagination/pagination-query.dto';
import { OriginIdentities } from '../protocol';
import { SpaceView, SpaceDirectory, SpaceMembershipReads } from '../spaces';
import { GroupMemberRecord, GroupRecord } from './dto/membership-records.dto';
import { GroupRequest } from './dto/membership-requests.dto';
import { GroupMembership } from './entities/group-membership.entity';
import { SpaceGroup } from './entities/space-group.entity';
import { GroupCounts } from './group-counts';

const DID_PATTERN = /^did:plat:[2346789acdefhknrtvz]{31}$/;
const FOREIGN_KEY_VIOLATION = '23503';

/**
 * Groups administration (design.md §9): admins of the space create, change and delete groups and
 * put active members of the space into them. Access as on the other admin routes: a non-admin who
 * reaches the space gets 403, a non-member of a space without a public profile the one 404.
 */
@Injectable()
export class GroupsService {
  constructor(
    @InjectRepository(SpaceGroup) private readonly groups: Repository<SpaceGroup>,
    @InjectRepository(GroupMembership) private readonly members: Repository<GroupMembership>,
    private readonly spaces: SpaceMembershipReads,
    private readonly directory: SpaceDirectory,
    private readonly origin: OriginIdentities,
    private readonly counts: GroupCounts,
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
    const builder = this.groups
      .createQueryBuilder('group')
      .where('group.spaceId = :spaceId', { spaceId: space.id });
    const page = await paginateKeyset(builder, {
      listing: `admin-space-groups`,
      columns: [{ expression: 'group.id', direction: 'ASC' }],
      keyOf: (group: SpaceGroup) => [group.id],
      page: query,
      cursors: this.cursors,
    });
    const memberCounts = await this.counts.memberCounts(page.rows.map((group) => group.id));
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
    await this.groups.insert({
      id,
      spaceId: space.id,
      did: identity.did,
      name: request.name,
      description: request.description || null,
      color: request.color ?? null,
    });
    return this.record(await this.groups.findOneByOrFail({ id }));
  }

  /** Replaces the name; description and color change when sent (null clears them). */
  async update(
    principal: RequestPrincipal,
    pathId: string,
    groupId: string,
    request: GroupRequest,
  ): Promise<GroupRecord> {
    const { group } = await this.adminGroup(principal, pathId, groupId);
    await this.groups.update(
      { id: group.id },
      {
        name: request.name,
        ...(request.description !== undefined ? { description: request.description || null } : {}),
        ...(request.color !== undefined ? { color: request.color } : {}),
      },
    );
    return this.record(await this.groups.findOneByOrFail({ id: group.id }));
  }

  /** Deletes the group and, with it, every membership of it. */
  async remove(principal: RequestPrincipal, pathId: string, groupId: string): Promise<void> {
    const { group } = await this.adminGroup(principal, pathId, groupId);
    await this.groups.delete({ id: group.id });
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
      await this.members
        .createQueryBuilder()
        .insert()
        .into(GroupMembership)
        .values({ groupId: group.id, memberDid, spaceId: group.spaceId, joinedAt: this.clock.now() })
        .orIgnore()
        .updateEntity(false)
        .execute();
    } catch (error) {
      // The group was deleted meanwhile.
      if (isForeignKeyViolation(error)) throw notFound();
      throw error;
    }
    const membership = await this.members.findOneBy({ groupId: group.id, memberDid });
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
    const result = await this.members.delete({ groupId: group.id, memberDid });
    if (!result.affected) throw notFound();
  }

  private async adminGroup(
    principal: RequestPrincipal,
    pathId: string,
    groupId: string,
  ): Promise<{ space: SpaceView; group: SpaceGroup }> {
    const space = await this.spaces.adminSpace(pathId, principal.did);
    const id = parseEntityId('group', groupId);
    const group = id ? await this.groups.findOneBy({ id, spaceId: space.id }) : null;
    if (!group) throw notFound();
    return { space, group };
  }

  private async record(group: SpaceGroup): Promise<GroupRecord> {
    const memberCounts = await this.counts.memberCounts([group.id]);
    return toGroupRecord(group, memberCounts.get(group.id) ?? 0);
  }
}

function toGroupRecord(group: SpaceGroup, memberCount: number): GroupRecord {
  return {
    id: formatEntityId('group', group.id),
    did: group.did,
    spaceId: formatEntityId('space', group.spaceId),
    name: group.name,
    description: group.description,
    color: group.color,
    memberCount,
    createdAt: group.createdAt.toISOString(),
    updatedAt: group.updatedAt.toISOString(),
  };
}

function isForeignKeyViolation(error: unknown): boolean {
  return (
    error instanceof QueryFailedError &&
    (error as QueryFailedError & { code?: string }).code === FOREIGN_KEY_VIOLATION
  );
}
