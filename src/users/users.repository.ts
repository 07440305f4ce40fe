import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { KeysetSeek } from '../common/pagination/keyset';
import { defineStatements } from '../infrastructure/database/statements';
import { UserSpacePin } from './entities/user-space-pin.entity';
import { StoredProfileLink, User } from './entities/user.entity';
import { affectedRows, ErasedRows } from '../common/erasure/erased-rows';

/**
 * Every column of `users`: an account by one key is read on fixed SQL with an explicit mapping, as
 * the profile routes and the public user record read one every request and TypeORM's find built
 * the statement again each time (docs/decisions/0084-hot-reads-on-fixed-sql-with-explicit-row-mapping.md).
 */
const COLUMNS = `id, did, handle, display_name, bio, avatar_id, links, is_public, email, verified_domain,
  profile_content_id, profile_head_cid, erasure_due_at, created_at, updated_at`;

const byKey = (key: 'id' | 'did' | 'handle') => `SELECT ${COLUMNS} FROM users WHERE ${key} = $1 LIMIT 1`;

/**
 * The account's identity is not deactivated: its chain's head is no `delete` (protocol's published
 * view; docs/decisions/0190-deactivation-follows-the-identity-chain.md).
 */
const ACTIVE_IDENTITY =
  'users.erasure_due_at IS NULL AND NOT EXISTS (SELECT 1 FROM deactivated_identities d WHERE d.did = users.did)';

/** A public profile by one key: public, identity not deactivated. */
const publicByKey = (key: 'id' | 'did' | 'handle') =>
  `SELECT ${COLUMNS} FROM users WHERE ${key} = $1 AND is_public AND ${ACTIVE_IDENTITY} LIMIT 1`;

/**
 * A user's public live spaces where they are an active member, with their pin if any ($1 the
 * user's id, $2 their DID), over the spaces module's published views: its tables stay its own.
 */
const SPACES_OF =
  'SELECT "space"."id" AS "id", "space"."did" AS "did", "space"."domain" AS "domain", ' +
  '"space"."display_name" AS "display_name", "space"."member_count" AS "member_count", ' +
  '"space"."avatar_media_id" AS "avatar_media_id", "pin"."position" AS "position", ' +
  '"pin"."pin_message" AS "pin_message", "pin"."pinned_at" AS "pinned_at", ' +
  '"membership"."joined_at" AS "joined_at" ' +
  'FROM "active_space_members" "membership" ' +
  'INNER JOIN "live_spaces" "space" ON "space"."id" = "membership"."space_id" AND "space"."is_public" ' +
  'LEFT JOIN "user_space_pins" "pin" ON "pin"."space_id" = "membership"."space_id" AND "pin"."user_id" = $1 ' +
  'WHERE "membership"."member_did" = $2';

/**
 * The order of a user's spaces: pinned first in the user's order, then most recently joined (a
 * total order), as `[expression, direction]`; the listing's cursor holds these four values.
 */
const SPACES_ORDER: [string, 'ASC' | 'DESC'][] = [
  ['CASE WHEN "pin"."position" IS NULL THEN 1 ELSE 0 END', 'ASC'],
  ['COALESCE("pin"."position", 0)', 'ASC'],
  ['"membership"."joined_at"', 'DESC'],
  ['"space"."id"', 'DESC'],
];

const flip = (direction: 'ASC' | 'DESC') => (direction === 'ASC' ? 'DESC' : 'ASC');

/** `ORDER BY` of `order`, reversed for a page read backwards. */
const orderBy = (order: [string, 'ASC' | 'DESC'][], backward: boolean) =>
  ' ORDER BY ' +
  order
    .map(([expression, direction]) => `${expression} ${backward ? flip(direction) : direction}`)
    .join(', ');

/**
 * The seek past a cursor over a sort key of mixed directions, its values from `$first` on: one
 * branch per column (equal on the ones before it, past it on this one).
 */
function seekPast(order: [string, 'ASC' | 'DESC'][], first: number, backward: boolean): string {
  const past = (direction: 'ASC' | 'DESC') => ((direction === 'ASC') !== backward ? '>' : '<');
  const branches = order.map(([expression, direction], index) =>
    [
      ...order.slice(0, index).map(([previous], j) => `${previous} = $${first + j}`),
      `${expression} ${past(direction)} $${first + index}`,
    ].join(' AND '),
  );
  return `(${branches.map((branch) => `(${branch})`).join(' OR ')})`;
}

/** The users module's fixed SQL (docs/decisions/0131-a-repository-per-module.md). */
export const USERS_STATEMENTS = defineStatements('UsersRepository', {
  /** An account by id, DID or handle ($1), every column. */
  userById: byKey('id'),
  userByDid: byKey('did'),
  userByHandle: byKey('handle'),
  /** A public profile (not deactivated) by id, DID or handle ($1): what GET /v1/users/{user} shows. */
  publicProfile: {
    byId: publicByKey('id'),
    byDid: publicByKey('did'),
    byHandle: publicByKey('handle'),
  },
  /**
   * The author fields of the accounts among these DIDs ($1), and the deactivated ones among them
   * flagged (with or without an account): every listing page asks this once.
   */
  authorsByDid:
    `SELECT did, handle, display_name, avatar_id, false AS deactivated FROM users WHERE did = ANY($1) AND ${ACTIVE_IDENTITY} ` +
    'UNION ALL SELECT d.did, NULL, NULL, NULL, true FROM deactivated_identities d WHERE d.did = ANY($1) ' +
    // An erasure pending deactivates the account as a delete does (0195-erasure-scheduled-by-the-users-module.md).
    'UNION ALL SELECT did, NULL, NULL, NULL, true FROM users WHERE did = ANY($1) AND erasure_due_at IS NOT NULL ' +
    'AND NOT EXISTS (SELECT 1 FROM deactivated_identities d WHERE d.did = users.did)',
  /** Which of these DIDs ($1) have a public profile (not deactivated). */
  publicDids: `SELECT did FROM users WHERE did = ANY($1) AND is_public AND ${ACTIVE_IDENTITY}`,
  /** Display names of the accounts among these DIDs ($1) that have one. */
  displayNames: 'SELECT did, display_name FROM users WHERE did = ANY($1) AND display_name IS NOT NULL',
  /** GET /v1/users: public accounts, earliest first, id breaking ties ($1 $2 the cursor; last, the limit). */
  publicPage: {
    first: `SELECT ${COLUMNS} FROM users WHERE is_public AND ${ACTIVE_IDENTITY} ORDER BY created_at ASC, id ASC LIMIT $1`,
    after: `SELECT ${COLUMNS} FROM users WHERE is_public AND ${ACTIVE_IDENTITY} AND (created_at, id) > ($1, $2) ORDER BY created_at ASC, id ASC LIMIT $3`,
    before: `SELECT ${COLUMNS} FROM users WHERE is_public AND ${ACTIVE_IDENTITY} AND (created_at, id) < ($1, $2) ORDER BY created_at DESC, id DESC LIMIT $3`,
  },
  /** The pinned spaces of several users ($1) still shown, each list in its user's order. */
  pinnedCards: `SELECT "pin"."user_id", "space"."did", "space"."domain", "space"."display_name", "space"."avatar_media_id"
           FROM "user_space_pins" "pin"
           JOIN "users" "user" ON "user"."id" = "pin"."user_id"
           JOIN "live_spaces" "space" ON "space"."id" = "pin"."space_id" AND "space"."is_public"
           JOIN "active_space_members" "membership" ON "membership"."space_id" = "pin"."space_id"
                AND "membership"."member_did" = "user"."did"
          WHERE "pin"."user_id" = ANY($1::uuid[])
          ORDER BY "pin"."user_id", "pin"."position", "pin"."space_id"`,
  /** The public spaces of a user ($1 id, $2 DID) embedded in the profile fetch. */
  embeddedSpaces: {
    /** Every pinned one, in the user's order. */
    pinned:
      SPACES_OF +
      ' AND "pin"."position" IS NOT NULL ORDER BY "pin"."position" ASC, "membership"."joined_at" DESC, "space"."id" DESC',
    /** Up to $3 unpinned ones, most recently joined first. */
    unpinned:
      SPACES_OF +
      ' AND "pin"."position" IS NULL ORDER BY "membership"."joined_at" DESC, "space"."id" DESC LIMIT $3',
  },
  /** GET /v1/users/{user}/spaces ($1 id, $2 DID; $3…$6 the cursor; last, the limit). */
  spacesPage: {
    first: SPACES_OF + orderBy(SPACES_ORDER, false) + ' LIMIT $3',
    after:
      SPACES_OF + ` AND ${seekPast(SPACES_ORDER, 3, false)}` + orderBy(SPACES_ORDER, false) + ' LIMIT $7',
    before: SPACES_OF + ` AND ${seekPast(SPACES_ORDER, 3, true)}` + orderBy(SPACES_ORDER, true) + ' LIMIT $7',
  },
  /** Serializes one user's pin writes ($1 the user's id): positions and the pin limit stay exact. */
  lockUser: 'SELECT "id" FROM "users" WHERE "id" = $1 FOR UPDATE',
  /** Every pin of a user ($1). */
  pinsOf:
    'SELECT "space_id", "position", "pin_message", "pinned_at" FROM "user_space_pins" WHERE "user_id" = $1',
  deletePinsOf: 'DELETE FROM "user_space_pins" WHERE "user_id" = $1',
  /** Pins of one user ($1) from parallel arrays: spaces, positions, messages, times. */
  insertPins:
    'INSERT INTO "user_space_pins" ("user_id", "space_id", "position", "pin_message", "pinned_at") ' +
    'SELECT $1, "space_id", "position", "pin_message", "pinned_at" ' +
    'FROM unnest($2::uuid[], $3::int[], $4::varchar[], $5::timestamptz[]) AS "p" ("space_id", "position", "pin_message", "pinned_at")',
  /** The last position among a user's pins ($1), null without any. */
  lastPinPosition: 'SELECT MAX("position") AS "max" FROM "user_space_pins" WHERE "user_id" = $1',
  /** Schedules the erasure of the account of $1 at $2; its row, for the answer. */
  scheduleErasure: `UPDATE users SET erasure_due_at = $2 WHERE did = $1 RETURNING erasure_due_at`,
  /** Cancels a scheduled erasure of $1: the row when there was one. */
  cancelErasure:
    'UPDATE users SET erasure_due_at = NULL WHERE did = $1 AND erasure_due_at IS NOT NULL RETURNING id',
  /** Whether the account of $1 awaits its erasure (deactivated meanwhile). */
  erasurePending:
    'SELECT EXISTS (SELECT 1 FROM users WHERE did = $1 AND erasure_due_at IS NOT NULL) AS pending',
  /** Up to $2 DIDs whose erasure is due at $1, earliest first (over idx_users_erasure_due). */
  dueErasures:
    'SELECT did FROM users WHERE erasure_due_at IS NOT NULL AND erasure_due_at <= $1 ORDER BY erasure_due_at, did LIMIT $2',
  /** Locks the account of $1 if its erasure is still due at $2 (a restore in between wins). */
  lockDueAccount:
    'SELECT id, avatar_id FROM users WHERE did = $1 AND erasure_due_at IS NOT NULL AND erasure_due_at <= $2 FOR UPDATE',
  /** The account's own rows: its pins, then the account (the handle becomes free). */
  erasePins: 'DELETE FROM user_space_pins WHERE user_id = $1',
  eraseAccount: 'DELETE FROM users WHERE id = $1',
  /** Pins that reads would show (live space, still an active member), public or not ($1 id, $2 DID). */
  countShownPins: `SELECT count(*)::int AS n
         FROM "user_space_pins" "pin"
         JOIN "active_space_members" "membership" ON "membership"."space_id" = "pin"."space_id"
              AND "membership"."member_did" = $2
        WHERE "pin"."user_id" = $1`,
});

export interface UserRow {
  id: string;
  did: string;
  handle: string;
  display_name: string | null;
  bio: string | null;
  avatar_id: string | null;
  links: StoredProfileLink[];
  is_public: boolean;
  email: string | null;
  verified_domain: string | null;
  profile_content_id: string | null;
  profile_head_cid: string | null;
  erasure_due_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export function userFromRow(row: UserRow): User {
  const user = new User();
  user.id = row.id;
  user.did = row.did;
  user.handle = row.handle;
  user.displayName = row.display_name;
  user.bio = row.bio;
  user.avatarId = row.avatar_id;
  user.links = row.links;
  user.isPublic = row.is_public;
  user.email = row.email;
  user.verifiedDomain = row.verified_domain;
  user.profileContentId = row.profile_content_id;
  user.profileHeadCid = row.profile_head_cid;
  user.erasureDueAt = row.erasure_due_at;
  user.createdAt = row.created_at;
  user.updatedAt = row.updated_at;
  return user;
}

/** The author fields of an account; a deactivated identity's row has only its DID. */
export interface AuthorRow {
  did: string;
  handle: string | null;
  display_name: string | null;
  avatar_id: string | null;
  deactivated: boolean;
}

/** One space of a user as the public reads select it. */
export interface UserSpaceRow {
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

/** A pinned space of a user as the directory shows it. */
export interface PinnedCardRow {
  user_id: string;
  did: string;
  domain: string;
  display_name: string | null;
  avatar_media_id: string | null;
}

/** An account by one key. */
export type AccountKey = 'id' | 'did' | 'handle';

const ACCOUNT_BY: Record<AccountKey, string> = {
  id: USERS_STATEMENTS.userById,
  did: USERS_STATEMENTS.userByDid,
  handle: USERS_STATEMENTS.userByHandle,
};

const PUBLIC_PROFILE_BY: Record<AccountKey, string> = {
  id: USERS_STATEMENTS.publicProfile.byId,
  did: USERS_STATEMENTS.publicProfile.byDid,
  handle: USERS_STATEMENTS.publicProfile.byHandle,
};

/** Every statement on `users` and `user_space_pins`. */
@Injectable()
export class UsersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The account whose `key` is `value`, or null. */
  async account(
    key: AccountKey,
    value: string,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<User | null> {
    const rows = await runner.query<UserRow[]>(ACCOUNT_BY[key], [value]);
    return rows.length === 0 ? null : userFromRow(rows[0]);
  }

  /** The public profile whose `key` is `value` (identity not deactivated), or null. */
  async publicProfile(key: AccountKey, value: string): Promise<User | null> {
    const rows = await this.dataSource.query<UserRow[]>(PUBLIC_PROFILE_BY[key], [value]);
    return rows.length === 0 ? null : userFromRow(rows[0]);
  }

  accountExists(did: string): Promise<boolean> {
    return this.dataSource.getRepository(User).exists({ where: { did } });
  }

  /** Inserts or updates the account (TypeORM's save: its times come back from the database). */
  async save(user: User): Promise<void> {
    await this.dataSource.getRepository(User).save(user);
  }

  async updateProfileChain(
    id: string,
    chain: Pick<User, 'profileContentId' | 'profileHeadCid'>,
  ): Promise<void> {
    await this.dataSource.getRepository(User).update(id, chain);
  }

  async handleOf(did: string): Promise<string | null> {
    const user = await this.dataSource
      .getRepository(User)
      .findOne({ where: { did }, select: { id: true, handle: true } });
    return user?.handle ?? null;
  }

  /** Author fields of the accounts among `dids` (distinct), deactivated ones flagged, in one statement. */
  authorRows(dids: readonly string[], runner: EntityManager = this.dataSource.manager): Promise<AuthorRow[]> {
    return runner.query<AuthorRow[]>(USERS_STATEMENTS.authorsByDid, [dids]);
  }

  async publicDids(dids: readonly string[]): Promise<string[]> {
    const rows = await this.dataSource.query<{ did: string }[]>(USERS_STATEMENTS.publicDids, [dids]);
    return rows.map((row) => row.did);
  }

  async displayNames(dids: readonly string[]): Promise<Map<string, string>> {
    const rows = await this.dataSource.query<{ did: string; display_name: string }[]>(
      USERS_STATEMENTS.displayNames,
      [dids],
    );
    return new Map(rows.map((row) => [row.did, row.display_name]));
  }

  /** The public accounts of a directory page: `seek.take` past the cursor, in reading order. */
  async publicPage(seek: KeysetSeek): Promise<User[]> {
    const rows = await this.dataSource.query<UserRow[]>(
      seek.values === null
        ? USERS_STATEMENTS.publicPage.first
        : seek.backward
          ? USERS_STATEMENTS.publicPage.before
          : USERS_STATEMENTS.publicPage.after,
      seek.values === null ? [seek.take] : [...seek.values, seek.take],
    );
    return rows.map(userFromRow);
  }

  pinnedCards(userIds: string[]): Promise<PinnedCardRow[]> {
    return this.dataSource.query<PinnedCardRow[]>(USERS_STATEMENTS.pinnedCards, [userIds]);
  }

  /** Every shown pinned space of the user, then up to `unpinned` more (two statements at once). */
  async embeddedSpaces(user: User, unpinned: number): Promise<UserSpaceRow[]> {
    const [pinned, more] = await Promise.all([
      this.dataSource.query<UserSpaceRow[]>(USERS_STATEMENTS.embeddedSpaces.pinned, [user.id, user.did]),
      this.dataSource.query<UserSpaceRow[]>(USERS_STATEMENTS.embeddedSpaces.unpinned, [
        user.id,
        user.did,
        unpinned,
      ]),
    ]);
    return [...pinned, ...more];
  }

  /** A page of the user's spaces: `seek.take` past the cursor, in reading order. */
  spacesPage(user: User, seek: KeysetSeek): Promise<UserSpaceRow[]> {
    return this.dataSource.query<UserSpaceRow[]>(
      seek.values === null
        ? USERS_STATEMENTS.spacesPage.first
        : seek.backward
          ? USERS_STATEMENTS.spacesPage.before
          : USERS_STATEMENTS.spacesPage.after,
      seek.values === null ? [user.id, user.did, seek.take] : [user.id, user.did, ...seek.values, seek.take],
    );
  }

  async lockUser(userId: string, runner: EntityManager): Promise<void> {
    await runner.query(USERS_STATEMENTS.lockUser, [userId]);
  }

  async pinsOf(userId: string, runner: EntityManager): Promise<UserSpacePin[]> {
    const rows = await runner.query<
      { space_id: string; position: number; pin_message: string | null; pinned_at: Date }[]
    >(USERS_STATEMENTS.pinsOf, [userId]);
    return rows.map((row) =>
      Object.assign(new UserSpacePin(), {
        userId,
        spaceId: row.space_id,
        position: row.position,
        pinMessage: row.pin_message,
        pinnedAt: row.pinned_at,
      }),
    );
  }

  /** Replaces every pin of the user with `pins`. */
  async replacePins(userId: string, pins: UserSpacePin[], runner: EntityManager): Promise<void> {
    await runner.query(USERS_STATEMENTS.deletePinsOf, [userId]);
    if (pins.length === 0) return;
    await runner.query(USERS_STATEMENTS.insertPins, [
      userId,
      pins.map((pin) => pin.spaceId),
      pins.map((pin) => pin.position),
      pins.map((pin) => pin.pinMessage),
      pins.map((pin) => pin.pinnedAt),
    ]);
  }

  pinOf(userId: string, spaceId: string, runner: EntityManager): Promise<UserSpacePin | null> {
    return runner.getRepository(UserSpacePin).findOne({ where: { userId, spaceId } });
  }

  async updatePinMessage(
    userId: string,
    spaceId: string,
    pinMessage: string | null,
    runner: EntityManager,
  ): Promise<void> {
    await runner.getRepository(UserSpacePin).update({ userId, spaceId }, { pinMessage });
  }

  async insertPin(pin: UserSpacePin, runner: EntityManager): Promise<void> {
    await runner.getRepository(UserSpacePin).insert(pin);
  }

  async deletePin(userId: string, spaceId: string): Promise<void> {
    await this.dataSource.getRepository(UserSpacePin).delete({ userId, spaceId });
  }

  /** The last position among the user's pins, null without any. */
  async lastPinPosition(userId: string, runner: EntityManager): Promise<number | null> {
    const [row] = await runner.query<{ max: number | null }[]>(USERS_STATEMENTS.lastPinPosition, [userId]);
    return row?.max === null || row?.max === undefined ? null : Number(row.max);
  }

  /** Sets when the account of `did` is erased; null when there is no account. */
  async scheduleErasure(did: string, dueAt: Date): Promise<Date | null> {
    const [rows] = await this.dataSource.query<[{ erasure_due_at: Date }[], number]>(
      USERS_STATEMENTS.scheduleErasure,
      [did, dueAt],
    );
    return rows[0]?.erasure_due_at ?? null;
  }

  /** Cancels the scheduled erasure of `did`: the account's id when one was scheduled, else null. */
  async cancelErasure(did: string): Promise<string | null> {
    const [rows] = await this.dataSource.query<[{ id: string }[], number]>(USERS_STATEMENTS.cancelErasure, [
      did,
    ]);
    return rows[0]?.id ?? null;
  }

  /** Whether the account of `did` awaits its erasure. */
  async erasurePending(did: string): Promise<boolean> {
    const rows = await this.dataSource.query<{ pending: boolean }[]>(USERS_STATEMENTS.erasurePending, [did]);
    return rows[0]?.pending === true;
  }

  async dueErasures(now: Date, limit: number): Promise<string[]> {
    const rows = await this.dataSource.query<{ did: string }[]>(USERS_STATEMENTS.dueErasures, [now, limit]);
    return rows.map((row) => row.did);
  }

  /** The account of `did` locked in `runner`'s transaction while its erasure is due, or null. */
  async lockDueAccount(
    did: string,
    now: Date,
    runner: EntityManager,
  ): Promise<{ id: string; avatarId: string | null } | null> {
    const rows = await runner.query<{ id: string; avatar_id: string | null }[]>(
      USERS_STATEMENTS.lockDueAccount,
      [did, now],
    );
    return rows.length === 0 ? null : { id: rows[0].id, avatarId: rows[0].avatar_id };
  }

  async eraseAccount(userId: string, runner: EntityManager): Promise<ErasedRows> {
    const pins = affectedRows(await runner.query(USERS_STATEMENTS.erasePins, [userId]));
    const users = affectedRows(await runner.query(USERS_STATEMENTS.eraseAccount, [userId]));
    return { users, user_space_pins: pins };
  }

  async countShownPins(user: User, runner: EntityManager): Promise<number> {
    const rows = await runner.query<{ n: number }[]>(USERS_STATEMENTS.countShownPins, [user.id, user.did]);
    return Number(rows[0].n);
  }
}
