import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { KeysetSeek } from '../../common/pagination/keyset';
import { defineStatements } from '../../infrastructure/database/statements';
import type { MemberRole } from '../domain/space-rules';
import { SpaceMembership } from '../entities/space-membership.entity';
import { Space } from '../entities/space.entity';
import {
  keysetStatement,
  keysetVariants,
  MEMBERSHIP_COLUMNS,
  membershipFromRow,
  MembershipRow,
  spaceColumnsOf,
  spaceFromRow,
  SpaceRow,
} from './space-rows';
import { affectedRows } from '../../common/erasure/erased-rows';

/** A person's active memberships of live spaces, with the space's columns. */
const ACTIVE_OF_PERSON =
  'SELECT m.role AS membership_role, m.joined_at AS membership_joined_at, ' +
  `${spaceColumnsOf('s')} FROM space_memberships m INNER JOIN spaces s ON s.id = m.space_id AND s.deleted_at IS NULL`;
const ACTIVE_OF_PERSON_COUNT =
  'SELECT count(*)::int AS count FROM space_memberships m ' +
  'INNER JOIN spaces s ON s.id = m.space_id AND s.deleted_at IS NULL';
const ACTIVE_OF_PERSON_WHERE = "m.member_did = $1 AND m.status = 'active' AND m.joined_at IS NOT NULL";
const PERSON_ORDER = ['m.joined_at', 'm.space_id'];

/** The columns of a membership as TypeORM's findOne named them (`"SpaceMembership_<column>"`). */
const FIND_COLUMNS = MEMBERSHIP_COLUMNS.split(', ')
  .map((column) => `"SpaceMembership"."${column}" AS "SpaceMembership_${column}"`)
  .join(', ');

/** The spaces module's fixed SQL on `space_memberships` (docs/decisions/0131-a-repository-per-module.md). */
/** A row of `exportPage`. */
export interface ExportedMembershipRow {
  space_id: string;
  space_did: string;
  space_display_name: string | null;
  role: string;
  status: string;
  status_message: string | null;
  joined_at: Date | null;
  banned_at: Date | null;
  created_at: Date;
}

export const SPACE_MEMBERSHIPS_STATEMENTS = defineStatements('SpaceMembershipsRepository', {
  /**
   * A page of a person's ($1) membership rows in any status, with their space, by space id
   * ($2 rows; `after`: $3 the last space id; docs/decisions/0210-personal-export-archive-layout.md).
   */
  exportPage: {
    first:
      'SELECT m.space_id, s.did AS space_did, s.display_name AS space_display_name, m.role, m.status, ' +
      'm.status_message, m.joined_at, m.banned_at, m.created_at FROM space_memberships m ' +
      'JOIN spaces s ON s.id = m.space_id WHERE m.member_did = $1 ORDER BY m.space_id LIMIT $2',
    after:
      'SELECT m.space_id, s.did AS space_did, s.display_name AS space_display_name, m.role, m.status, ' +
      'm.status_message, m.joined_at, m.banned_at, m.created_at FROM space_memberships m ' +
      'JOIN spaces s ON s.id = m.space_id WHERE m.member_did = $1 AND m.space_id > $3 ORDER BY m.space_id LIMIT $2',
  },
  /**
   * A person's (`$2`) membership row of a space (`$1`) in any status: the text TypeORM's findOne
   * sent, kept so the bench's twin runs this very statement.
   */
  find:
    `SELECT ${FIND_COLUMNS} FROM "space_memberships" "SpaceMembership" ` +
    'WHERE (("SpaceMembership"."space_id" = $1) AND ("SpaceMembership"."member_did" = $2)) LIMIT 1',
  /**
   * DIDs of a space's (`$1`) active members: `all`, only owners and admins (`admins`), and either
   * without one person (`$2`).
   */
  activeDids: {
    all: "SELECT member_did AS did FROM space_memberships WHERE space_id = $1 AND status = 'active'",
    admins:
      "SELECT member_did AS did FROM space_memberships WHERE space_id = $1 AND status = 'active' " +
      "AND role IN ('owner', 'admin')",
    allExcept:
      "SELECT member_did AS did FROM space_memberships WHERE space_id = $1 AND status = 'active' " +
      'AND member_did <> $2',
    adminsExcept:
      "SELECT member_did AS did FROM space_memberships WHERE space_id = $1 AND status = 'active' " +
      "AND role IN ('owner', 'admin') AND member_did <> $2",
  },
  /**
   * Whether a person (`$2`) has applied to a space (`$1`), in status `$3` when not null: read from
   * the view legacy-spaces publishes (`space_applicants`), since applications are that module's.
   */
  hasApplied: `SELECT 1 FROM "space_applicants" WHERE "space_id" = $1 AND "applicant_did" = $2
          AND ($3::varchar IS NULL OR "status" = $3) LIMIT 1`,
  /**
   * A space's (`$1`) active members, earliest joined first (keyset: joined_at, member_did); a
   * deactivated identity is not listed, its membership kept (protocol's published view:
   * docs/decisions/0190-deactivation-follows-the-identity-chain.md).
   */
  membersPage: keysetVariants(
    `SELECT ${MEMBERSHIP_COLUMNS} FROM space_memberships`,
    "space_id = $1 AND status = 'active' " +
      'AND NOT EXISTS (SELECT 1 FROM deactivated_identities d WHERE d.did = space_memberships.member_did) ' +
      // Nor an account whose erasure is pending (users' published view: 0195-erasure-scheduled-by-the-users-module.md).
      'AND NOT EXISTS (SELECT 1 FROM erasure_pending_accounts e WHERE e.did = space_memberships.member_did)',
    1,
    ['joined_at', 'member_did'],
    'ASC',
  ),
  /** A space's (`$1`) banned people, most recently banned first (keyset: banned_at, member_did). */
  bansPage: keysetVariants(
    `SELECT ${MEMBERSHIP_COLUMNS} FROM space_memberships`,
    "space_id = $1 AND status = 'banned'",
    1,
    ['banned_at', 'member_did'],
    'DESC',
  ),
  /**
   * A person's (`$1`) active memberships of live spaces, `joinedAt` then space id ascending: of
   * `anyRole`, or of the roles `$2` (`ofRoles`).
   */
  activeOfPersonPage: {
    anyRole: keysetVariants(ACTIVE_OF_PERSON, ACTIVE_OF_PERSON_WHERE, 1, PERSON_ORDER, 'ASC'),
    ofRoles: keysetVariants(
      ACTIVE_OF_PERSON,
      `${ACTIVE_OF_PERSON_WHERE} AND m.role = ANY($2)`,
      2,
      PERSON_ORDER,
      'ASC',
    ),
  },
  /** How many rows activeOfPersonPage walks through. */
  activeOfPersonCount: {
    anyRole: `${ACTIVE_OF_PERSON_COUNT} WHERE ${ACTIVE_OF_PERSON_WHERE}`,
    ofRoles: `${ACTIVE_OF_PERSON_COUNT} WHERE ${ACTIVE_OF_PERSON_WHERE} AND m.role = ANY($2)`,
  },
  /** The roles of a person's (`$1`) active memberships of the live spaces among `$2`. */
  rolesIn:
    'SELECT m.space_id, m.role FROM space_memberships m INNER JOIN spaces s ON s.id = m.space_id ' +
    `AND s.deleted_at IS NULL WHERE ${ACTIVE_OF_PERSON_WHERE} AND m.space_id = ANY($2)`,
  /**
   * Erasure of a person ($1) (docs/decisions/0196-what-an-erasure-removes-and-keeps.md): their bans
   * are kept as the keyed hash ($2) of their DID only
   * (docs/decisions/0193-bans-of-erased-people-kept-as-keyed-hashes.md)…
   */
  keepErasedBans:
    'INSERT INTO space_erased_bans (space_id, did_hash, banned_at) ' +
    "SELECT space_id, $2, banned_at FROM space_memberships WHERE member_did = $1 AND status = 'banned' " +
    'ON CONFLICT (space_id, did_hash) DO NOTHING RETURNING space_id',
  /** …every membership row of theirs goes (the spaces whose active count changes come back)… */
  eraseMemberships: 'DELETE FROM space_memberships WHERE member_did = $1 RETURNING space_id, status',
  /** …and the bans they gave no longer name them. */
  forgetBanner: 'UPDATE space_memberships SET banned_by_did = NULL WHERE banned_by_did = $1',
  /** Whether the space ($1) bans an erased person by the hash ($2) of their DID (primary key). */
  erasedBan: 'SELECT 1 FROM space_erased_bans WHERE space_id = $1 AND did_hash = $2',
  /** Lifts a ban of an erased person ($1 space, $2 hash). */
  liftErasedBan: 'DELETE FROM space_erased_bans WHERE space_id = $1 AND did_hash = $2 RETURNING space_id',
});

/** A person's active membership of a live space, as SpaceMembershipReadsService lists them. */
export interface ActiveMembershipRow {
  space: Space;
  role: MemberRole;
  joinedAt: Date;
}

/** A row of SPACE_MEMBERSHIPS_STATEMENTS.find: each column under `SpaceMembership_<column>`. */
export type FoundMembershipRow = {
  [Column in keyof MembershipRow as `SpaceMembership_${Column}`]: MembershipRow[Column];
};

/** A found membership row under its columns' own names. */
function unprefixed(row: FoundMembershipRow): MembershipRow {
  return {
    space_id: row.SpaceMembership_space_id,
    member_did: row.SpaceMembership_member_did,
    role: row.SpaceMembership_role,
    status: row.SpaceMembership_status,
    joined_at: row.SpaceMembership_joined_at,
    status_message: row.SpaceMembership_status_message,
    banned_at: row.SpaceMembership_banned_at,
    banned_by_did: row.SpaceMembership_banned_by_did,
    created_at: row.SpaceMembership_created_at,
    updated_at: row.SpaceMembership_updated_at,
  };
}

/** Every statement on `space_memberships` (and the applicants view legacy-spaces publishes). */
@Injectable()
export class SpaceMembershipsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A page of `memberDid`'s membership rows (any status) after the space id `after`. */
  exportPage(
    memberDid: string,
    after: string | null,
    limit: number,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<ExportedMembershipRow[]> {
    const { exportPage } = SPACE_MEMBERSHIPS_STATEMENTS;
    return after
      ? runner.query<ExportedMembershipRow[]>(exportPage.after, [memberDid, limit, after])
      : runner.query<ExportedMembershipRow[]>(exportPage.first, [memberDid, limit]);
  }

  /**
   * Erases the person's memberships, their bans kept under `didHash` only: the rows erased and the
   * spaces where they were active.
   */
  async eraseOf(
    did: string,
    didHash: string,
    runner: EntityManager,
  ): Promise<{ erased: number; bans: number; activeIn: string[] }> {
    const bans = await runner.query<unknown[]>(SPACE_MEMBERSHIPS_STATEMENTS.keepErasedBans, [did, didHash]);
    const [rows] = await runner.query<[{ space_id: string; status: string }[], number]>(
      SPACE_MEMBERSHIPS_STATEMENTS.eraseMemberships,
      [did],
    );
    const banned = affectedRows(await runner.query(SPACE_MEMBERSHIPS_STATEMENTS.forgetBanner, [did]));
    return {
      erased: rows.length + banned,
      bans: bans.length,
      activeIn: rows.filter((row) => row.status === 'active').map((row) => row.space_id),
    };
  }

  /** Whether the space bans an erased person by the hash of their DID. */
  async erasedBan(spaceId: string, didHash: string, runner: EntityManager): Promise<boolean> {
    const rows = await runner.query<unknown[]>(SPACE_MEMBERSHIPS_STATEMENTS.erasedBan, [spaceId, didHash]);
    return rows.length > 0;
  }

  /** Lifts a ban of an erased person: whether there was one. */
  async liftErasedBan(spaceId: string, didHash: string, runner: EntityManager): Promise<boolean> {
    const [rows] = await runner.query<[unknown[], number]>(SPACE_MEMBERSHIPS_STATEMENTS.liftErasedBan, [
      spaceId,
      didHash,
    ]);
    return rows.length > 0;
  }

  /** The person's membership row in any state, or null. */
  async find(
    spaceId: string,
    did: string,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<SpaceMembership | null> {
    const rows = await runner.query<FoundMembershipRow[]>(SPACE_MEMBERSHIPS_STATEMENTS.find, [spaceId, did]);
    return rows.length === 0 ? null : membershipFromRow(unprefixed(rows[0]));
  }

  /** A new membership row, not stored yet. */
  create(fields: Partial<SpaceMembership>): SpaceMembership {
    return this.dataSource.getRepository(SpaceMembership).create(fields);
  }

  async save(membership: SpaceMembership, runner: EntityManager): Promise<void> {
    await runner.getRepository(SpaceMembership).save(membership);
  }

  async insert(membership: Partial<SpaceMembership>, runner: EntityManager): Promise<void> {
    await runner.getRepository(SpaceMembership).insert(membership);
  }

  async updateStatusMessage(spaceId: string, did: string, statusMessage: string | null): Promise<void> {
    await this.dataSource
      .getRepository(SpaceMembership)
      .update({ spaceId, memberDid: did }, { statusMessage });
  }

  async activeDids(spaceId: string, options: { adminsOnly?: boolean; except?: string }): Promise<string[]> {
    const { activeDids } = SPACE_MEMBERSHIPS_STATEMENTS;
    const rows = await (options.except
      ? this.dataSource.query<{ did: string }[]>(
          options.adminsOnly ? activeDids.adminsExcept : activeDids.allExcept,
          [spaceId, options.except],
        )
      : this.dataSource.query<{ did: string }[]>(options.adminsOnly ? activeDids.admins : activeDids.all, [
          spaceId,
        ]));
    return rows.map((row) => row.did);
  }

  async hasApplied(spaceId: string, did: string, status: 'pending' | null): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>(SPACE_MEMBERSHIPS_STATEMENTS.hasApplied, [
      spaceId,
      did,
      status,
    ]);
    return rows.length > 0;
  }

  async membersPage(
    spaceId: string,
    seek: KeysetSeek,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<SpaceMembership[]> {
    return this.page(SPACE_MEMBERSHIPS_STATEMENTS.membersPage, [spaceId], seek, runner);
  }

  async bansPage(spaceId: string, seek: KeysetSeek): Promise<SpaceMembership[]> {
    return this.page(SPACE_MEMBERSHIPS_STATEMENTS.bansPage, [spaceId], seek);
  }

  async activeOfPersonPage(
    did: string,
    roles: readonly MemberRole[] | null,
    seek: KeysetSeek,
  ): Promise<ActiveMembershipRow[]> {
    const { anyRole, ofRoles } = SPACE_MEMBERSHIPS_STATEMENTS.activeOfPersonPage;
    const [sql, parameters] =
      roles && roles.length > 0
        ? keysetStatement(ofRoles, [did, [...roles]], seek)
        : keysetStatement(anyRole, [did], seek);
    const rows = await this.dataSource.query<
      (SpaceRow & { membership_role: MemberRole; membership_joined_at: Date })[]
    >(sql, parameters);
    return rows.map((row) => ({
      space: spaceFromRow(row),
      role: row.membership_role,
      joinedAt: row.membership_joined_at,
    }));
  }

  async activeOfPersonCount(did: string, roles: readonly MemberRole[] | null): Promise<number> {
    const { anyRole, ofRoles } = SPACE_MEMBERSHIPS_STATEMENTS.activeOfPersonCount;
    const [row] = await (roles && roles.length > 0
      ? this.dataSource.query<{ count: number }[]>(ofRoles, [did, [...roles]])
      : this.dataSource.query<{ count: number }[]>(anyRole, [did]));
    return row.count;
  }

  async rolesIn(did: string, spaceIds: string[]): Promise<Map<string, MemberRole>> {
    const rows = await this.dataSource.query<{ space_id: string; role: MemberRole }[]>(
      SPACE_MEMBERSHIPS_STATEMENTS.rolesIn,
      [did, spaceIds],
    );
    return new Map(rows.map((row) => [row.space_id, row.role]));
  }

  private async page(
    variants: { first: string; after: string; before: string },
    parameters: unknown[],
    seek: KeysetSeek,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<SpaceMembership[]> {
    const [sql, values] = keysetStatement(variants, parameters, seek);
    return (await runner.query<MembershipRow[]>(sql, values)).map(membershipFromRow);
  }
}
