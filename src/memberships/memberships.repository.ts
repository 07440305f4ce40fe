import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { KeysetSeek } from '../common/pagination/keyset';
import { defineStatements } from '../infrastructure/database/statements';
import { GroupMembership } from './entities/group-membership.entity';
import { SpaceGroup } from './entities/space-group.entity';
import { affectedRows, ErasedRows } from '../common/erasure/erased-rows';

/**
 * A group membership counts only while the person is an active member of the group's live space
 * (api-spec.md "Membership records"), read through the spaces module's published view; with
 * `roles`, only with one of the roles in the parameter `$roles`.
 */
const activeMember = (roles?: string) =>
  'EXISTS (SELECT 1 FROM "active_space_members" "a" WHERE "a"."space_id" = "gm"."space_id" ' +
  `AND "a"."member_did" = "gm"."member_did"${roles ? ` AND "a"."role" = ANY(${roles})` : ''})`;

const GROUP_COLUMNS =
  '"group"."id", "group"."space_id", "group"."did", "group"."name", "group"."description", "group"."color", ' +
  '"group"."created_at", "group"."updated_at"';

/** The person's ($1) group memberships with their groups, `roles` and `space` filtering when present. */
function groupMemberships(roles: boolean, space: boolean) {
  let next = 2;
  const role = roles ? `$${next++}` : undefined;
  const inSpace = space ? ` AND "gm"."space_id" = $${next++}` : '';
  const where = `WHERE "gm"."member_did" = $1 AND ${activeMember(role)}${inSpace}`;
  const select =
    'SELECT "gm"."group_id" AS "group_id", "gm"."member_did" AS "member_did", "gm"."space_id" AS "gm_space_id", ' +
    `"gm"."joined_at" AS "joined_at", ${GROUP_COLUMNS} ` +
    'FROM "group_memberships" "gm" INNER JOIN "space_groups" "group" ON "group"."id" = "gm"."group_id" ' +
    where;
  const order = (direction: 'ASC' | 'DESC') =>
    ` ORDER BY "gm"."joined_at" ${direction}, "gm"."group_id" ${direction}`;
  const seek = (comparator: '>' | '<') =>
    ` AND ("gm"."joined_at", "gm"."group_id") ${comparator} ($${next}, $${next + 1})`;
  return {
    page: {
      first: `${select}${order('ASC')} LIMIT $${next}`,
      after: `${select}${seek('>')}${order('ASC')} LIMIT $${next + 2}`,
      before: `${select}${seek('<')}${order('DESC')} LIMIT $${next + 2}`,
    },
    count: `SELECT COUNT(*)::int AS "count" FROM "group_memberships" "gm" ${where}`,
  };
}

const ALL = groupMemberships(false, false);
const BY_ROLES = groupMemberships(true, false);
const IN_SPACE = groupMemberships(false, true);
const BY_ROLES_IN_SPACE = groupMemberships(true, true);

const SPACE_GROUP_COLUMNS =
  '"id", "space_id", "did", "name", "description", "color", "created_at", "updated_at"';

/** The memberships module's fixed SQL (docs/decisions/0131-a-repository-per-module.md). */
export const MEMBERSHIPS_STATEMENTS = defineStatements('MembershipsRepository', {
  /** Active members per group among $1 (groups with none are absent). */
  memberCounts:
    'SELECT "gm"."group_id" AS "groupId", COUNT(*)::int AS "count" FROM "group_memberships" "gm" ' +
    `WHERE "gm"."group_id" = ANY($1) AND ${activeMember()} GROUP BY "gm"."group_id"`,
  /** Groups a person ($1) is in, per space among $2. */
  groupCounts:
    'SELECT "gm"."space_id" AS "spaceId", COUNT(*)::int AS "count" FROM "group_memberships" "gm" ' +
    'WHERE "gm"."member_did" = $1 AND "gm"."space_id" = ANY($2) GROUP BY "gm"."space_id"',
  /** Whether a person ($2) is in one of these groups ($3) of the space ($1). */
  inAnyGroup:
    'SELECT EXISTS (SELECT 1 FROM "group_memberships" WHERE "space_id" = $1 AND "member_did" = $2 ' +
    'AND "group_id" = ANY($3)) AS "found"',
  /** Every group of a space ($1) by id (the admin listing; $2 the cursor, last the limit). */
  groupsPage: {
    first: `SELECT ${SPACE_GROUP_COLUMNS} FROM "space_groups" WHERE "space_id" = $1 ORDER BY "id" ASC LIMIT $2`,
    after: `SELECT ${SPACE_GROUP_COLUMNS} FROM "space_groups" WHERE "space_id" = $1 AND "id" > $2 ORDER BY "id" ASC LIMIT $3`,
    before: `SELECT ${SPACE_GROUP_COLUMNS} FROM "space_groups" WHERE "space_id" = $1 AND "id" < $2 ORDER BY "id" DESC LIMIT $3`,
  },
  /**
   * A person's ($1) group memberships inside live spaces where they are an active member, joinedAt
   * then group id ascending: every one, with a role among $2, in one space ($2, or $3 after roles);
   * then the cursor and the limit.
   */
  groupMembershipsPage: {
    all: ALL.page,
    byRoles: BY_ROLES.page,
    inSpace: IN_SPACE.page,
    byRolesInSpace: BY_ROLES_IN_SPACE.page,
  },
  /** How many rows the same filters list. */
  groupMembershipsCount: {
    all: ALL.count,
    byRoles: BY_ROLES.count,
    inSpace: IN_SPACE.count,
    byRolesInSpace: BY_ROLES_IN_SPACE.count,
  },
  /** Puts a person in a group; a repeat changes nothing ($1 group, $2 DID, $3 space, $4 time). */
  insertMember:
    'INSERT INTO "group_memberships" ("group_id", "member_did", "space_id", "joined_at") ' +
    'VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
  /** Takes a person ($2) out of every group of a space ($1). */
  removeFromGroups: 'DELETE FROM "group_memberships" WHERE "space_id" = $1 AND "member_did" = $2',
  /** Every group row of a person ($1), in every space: their erasure. */
  eraseMember: 'DELETE FROM "group_memberships" WHERE "member_did" = $1',
  /** Every membership of a space's ($1) groups, found through the groups (indexed by space). */
  emptyGroups:
    'DELETE FROM "group_memberships" WHERE "group_id" IN (SELECT "id" FROM "space_groups" WHERE "space_id" = $1)',
});

interface SpaceGroupRow {
  id: string;
  space_id: string;
  did: string;
  name: string;
  description: string | null;
  color: string | null;
  created_at: Date;
  updated_at: Date;
}

interface GroupMembershipRow extends SpaceGroupRow {
  group_id: string;
  member_did: string;
  gm_space_id: string;
  joined_at: Date;
}

function groupFromRow(row: SpaceGroupRow): SpaceGroup {
  return Object.assign(new SpaceGroup(), {
    id: row.id,
    spaceId: row.space_id,
    did: row.did,
    name: row.name,
    description: row.description,
    color: row.color,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
}

function membershipFromRow(row: GroupMembershipRow): GroupMembership {
  return Object.assign(new GroupMembership(), {
    groupId: row.group_id,
    memberDid: row.member_did,
    spaceId: row.gm_space_id,
    joinedAt: row.joined_at,
    group: groupFromRow(row),
  });
}

/** The filters of a person's group membership listing. */
export interface GroupMembershipFilter {
  /** Roles in the space the person must hold one of, or null for any. */
  roles: readonly string[] | null;
  /** One space to list, or null for every space. */
  spaceId: string | null;
}

const pageVariant = (statements: { first: string; after: string; before: string }, seek: KeysetSeek) =>
  seek.values === null ? statements.first : seek.backward ? statements.before : statements.after;

/** Every statement on `space_groups` and `group_memberships`. */
@Injectable()
export class MembershipsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Active members per group uuid (groups with none are absent). */
  async memberCounts(groupIds: string[]): Promise<Map<string, number>> {
    if (groupIds.length === 0) return new Map();
    const rows = await this.dataSource.query<{ groupId: string; count: number }[]>(
      MEMBERSHIPS_STATEMENTS.memberCounts,
      [groupIds],
    );
    return new Map(rows.map((row) => [row.groupId, Number(row.count)]));
  }

  /** Groups the person is in, per space uuid, among `spaceIds`. */
  async groupCounts(did: string, spaceIds: string[]): Promise<Map<string, number>> {
    if (spaceIds.length === 0) return new Map();
    const rows = await this.dataSource.query<{ spaceId: string; count: number }[]>(
      MEMBERSHIPS_STATEMENTS.groupCounts,
      [did, spaceIds],
    );
    return new Map(rows.map((row) => [row.spaceId, Number(row.count)]));
  }

  async inAnyGroup(spaceId: string, did: string, groupIds: readonly string[]): Promise<boolean> {
    const [row] = await this.dataSource.query<{ found: boolean }[]>(MEMBERSHIPS_STATEMENTS.inAnyGroup, [
      spaceId,
      did,
      groupIds,
    ]);
    return row.found;
  }

  /** A page of the space's groups by id: `seek.take` past the cursor, in reading order. */
  async groupsPage(spaceId: string, seek: KeysetSeek): Promise<SpaceGroup[]> {
    const rows = await this.dataSource.query<SpaceGroupRow[]>(
      pageVariant(MEMBERSHIPS_STATEMENTS.groupsPage, seek),
      [spaceId, ...(seek.values ?? []), seek.take],
    );
    return rows.map(groupFromRow);
  }

  /** A page of the person's group memberships (each with its group) under `filter`. */
  async groupMembershipsPage(
    did: string,
    filter: GroupMembershipFilter,
    seek: KeysetSeek,
  ): Promise<GroupMembership[]> {
    const rows = await this.dataSource.query<GroupMembershipRow[]>(
      pageVariant(MEMBERSHIPS_STATEMENTS.groupMembershipsPage[this.variant(filter)], seek),
      [...this.filterParameters(did, filter), ...(seek.values ?? []), seek.take],
    );
    return rows.map(membershipFromRow);
  }

  /** How many group memberships of the person `filter` lists. */
  async countGroupMemberships(did: string, filter: GroupMembershipFilter): Promise<number> {
    const [row] = await this.dataSource.query<{ count: number }[]>(
      MEMBERSHIPS_STATEMENTS.groupMembershipsCount[this.variant(filter)],
      this.filterParameters(did, filter),
    );
    return Number(row.count);
  }

  private variant(filter: GroupMembershipFilter): 'all' | 'byRoles' | 'inSpace' | 'byRolesInSpace' {
    if (filter.roles) return filter.spaceId ? 'byRolesInSpace' : 'byRoles';
    return filter.spaceId ? 'inSpace' : 'all';
  }

  private filterParameters(did: string, filter: GroupMembershipFilter): unknown[] {
    return [did, ...(filter.roles ? [filter.roles] : []), ...(filter.spaceId ? [filter.spaceId] : [])];
  }

  findGroup(
    where: { id: string } | { did: string } | { id: string; spaceId: string },
  ): Promise<SpaceGroup | null> {
    return this.dataSource.getRepository(SpaceGroup).findOneBy(where);
  }

  async insertGroup(group: Pick<SpaceGroup, 'id' | 'spaceId' | 'did' | 'name' | 'description' | 'color'>) {
    await this.dataSource.getRepository(SpaceGroup).insert(group);
  }

  async updateGroup(id: string, change: Partial<Pick<SpaceGroup, 'name' | 'description' | 'color'>>) {
    await this.dataSource.getRepository(SpaceGroup).update({ id }, change);
  }

  /** Deletes the group and, by cascade, every membership of it. */
  async deleteGroup(id: string): Promise<void> {
    await this.dataSource.getRepository(SpaceGroup).delete({ id });
  }

  findMembership(groupId: string, memberDid: string): Promise<GroupMembership | null> {
    return this.dataSource.getRepository(GroupMembership).findOneBy({ groupId, memberDid });
  }

  /** Puts the person in the group; a repeat changes nothing. */
  async insertMember(groupId: string, memberDid: string, spaceId: string, joinedAt: Date): Promise<void> {
    await this.dataSource.query(MEMBERSHIPS_STATEMENTS.insertMember, [groupId, memberDid, spaceId, joinedAt]);
  }

  /** Takes the person out of the group; false when they were not in it. */
  async deleteMember(groupId: string, memberDid: string): Promise<boolean> {
    const result = await this.dataSource.getRepository(GroupMembership).delete({ groupId, memberDid });
    return Boolean(result.affected);
  }

  /** Takes the person out of every group of the space, in the runner's transaction. */
  async eraseMember(did: string, runner: EntityManager): Promise<ErasedRows> {
    return { group_memberships: affectedRows(await runner.query(MEMBERSHIPS_STATEMENTS.eraseMember, [did])) };
  }

  async removeFromGroups(spaceId: string, did: string, runner: EntityManager): Promise<void> {
    await runner.query(MEMBERSHIPS_STATEMENTS.removeFromGroups, [spaceId, did]);
  }

  /** Empties every group of the space, in the runner's transaction. */
  async emptyGroups(spaceId: string, runner: EntityManager): Promise<void> {
    await runner.query(MEMBERSHIPS_STATEMENTS.emptyGroups, [spaceId]);
  }
}
