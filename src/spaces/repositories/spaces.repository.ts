import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { KeysetSeek } from '../../common/pagination/keyset';
import { defineStatements } from '../../infrastructure/database/statements';
import type { MemberRole, TopicAccessKind } from '../domain/space-rules';
import type { TopicView } from '../domain/space-views';
import { Space } from '../entities/space.entity';
import {
  DIRECTORY_CARD_COLUMNS,
  DirectoryFilters,
  forWriteFromRow,
  SPACE_COLUMNS,
  spaceCardsFromRows,
  SpaceCardRow,
  spaceColumnsOf,
  SpaceForWriteRow,
  spaceFromRow,
  SpaceRow,
  TOPIC_COLUMNS,
  topicFromRow,
  TopicRow,
} from './space-rows';

/** How a space reference names a space: its DID, its uuid or its subdomain. */
export type SpaceKey = 'did' | 'id' | 'domain';

/**
 * A live space by one key, on fixed SQL with an explicit mapping: every space route resolves its
 * space first, and TypeORM's find built the same statement again for each request
 * (docs/decisions/0084-hot-reads-on-fixed-sql-with-explicit-row-mapping.md).
 */
const live = (key: SpaceKey) =>
  `SELECT ${SPACE_COLUMNS} FROM spaces WHERE ${key} = $1 AND deleted_at IS NULL LIMIT 1`;

/**
 * What a write needs in one statement (docs/decisions/0093-writes-resolve-the-space-and-the-writers-membership-in-one.md):
 * the live space by one key (`$1`), the membership row of a person (`$2`) there in any status,
 * and a live topic of it (`$3`, a uuid or null). Both joined rows are null when absent.
 */
const forWrite = (key: SpaceKey) =>
  `SELECT ${spaceColumnsOf('s')},
     m.status AS membership_status, m.role AS membership_role,
     t.id AS topic_id, t.space_id AS topic_space_id, t.name AS topic_name,
     t.description AS topic_description, t.access_kind AS topic_access_kind,
     t.access_group_ids AS topic_access_group_ids, t.deleted_at AS topic_deleted_at
   FROM spaces s
   LEFT JOIN space_memberships m ON m.space_id = s.id AND m.member_did = $2
   LEFT JOIN space_topics t ON t.id = $3::uuid AND t.space_id = s.id AND t.deleted_at IS NULL
   WHERE s.${key} = $1 AND s.deleted_at IS NULL LIMIT 1`;

/** The live topics of some spaces (`$1`), optionally of some access kinds only (`$2`). */
const TOPICS_OF = `SELECT ${TOPIC_COLUMNS} FROM space_topics
  WHERE space_id = ANY($1) AND deleted_at IS NULL`;

/** The directory filters a page statement is declared for, in the order their parameters bind. */
const DIRECTORY_FILTERS = ['joinMode', 'category', 'optedIn', 'activeSince'] as const;
type DirectoryFilter = (typeof DIRECTORY_FILTERS)[number];
const DIRECTORY_PREDICATES: Record<DirectoryFilter, string> = {
  joinMode: '"join_mode" = ',
  category: '"category" = ',
  optedIn: '"discovery_opt_in" = ',
  activeSince: '"last_activity_at" >= ',
};

/**
 * One page of the public directory (docs/decisions/0084-hot-reads-on-fixed-sql-with-explicit-row-mapping.md):
 * the card columns of live public spaces with recorded activity, filtered by `filters`, past the
 * keyset (`last_activity_at`, `id`, both descending; ascending when read backward). `is_public
 * AND deleted_at IS NULL` is the directory indexes' predicate. Each combination of filters is its
 * own fixed statement (each reads its own partial index).
 */
function directoryPage(filters: readonly DirectoryFilter[], variant: 'first' | 'after' | 'before'): string {
  let parameters = 0;
  const bind = () => `$${++parameters}`;
  const where = ['"is_public"', '"last_activity_at" IS NOT NULL', '"deleted_at" IS NULL'];
  for (const filter of filters) where.push(`${DIRECTORY_PREDICATES[filter]}${bind()}`);
  const order = variant === 'before' ? 'ASC' : 'DESC';
  if (variant !== 'first') {
    const comparator = variant === 'before' ? '>' : '<';
    where.push(`("last_activity_at", "id") ${comparator} (${bind()}, ${bind()})`);
  }
  return `SELECT ${DIRECTORY_CARD_COLUMNS} FROM "spaces" WHERE ${where.join(' AND ')}
      ORDER BY "last_activity_at" ${order}, "id" ${order} LIMIT ${bind()}`;
}

/** The name of a combination of directory filters: `unfiltered`, `joinMode`, `joinMode_category`, … */
const directoryKey = (filters: readonly DirectoryFilter[]) =>
  filters.length === 0 ? 'unfiltered' : filters.join('_');

const DIRECTORY_COMBINATIONS: DirectoryFilter[][] = Array.from(
  { length: 1 << DIRECTORY_FILTERS.length },
  (_, bits) => DIRECTORY_FILTERS.filter((_, index) => bits & (1 << index)),
);

/** The spaces module's fixed SQL on `spaces` (docs/decisions/0131-a-repository-per-module.md). */
export const SPACES_STATEMENTS = defineStatements('SpacesRepository', {
  /** Which of these media ($1 uuid[]) a row still names: an erasure keeps those (0192-an-erasure-takes-the-persons-media-and-invites.md). */
  mediaNamed:
    'SELECT avatar_media_id AS id FROM spaces WHERE avatar_media_id = ANY($1::uuid[]) ' +
    'UNION SELECT header_media_id FROM spaces WHERE header_media_id = ANY($1::uuid[]) ' +
    'UNION SELECT background_media_id FROM spaces WHERE background_media_id = ANY($1::uuid[]) ' +
    'UNION SELECT cover_media_id FROM space_pages WHERE cover_media_id = ANY($1::uuid[])',
  /** A live space by DID, uuid or subdomain. */
  live: { byId: live('id'), byDid: live('did'), byDomain: live('domain') },
  /** A live space, a person's membership there and a live topic of it, by DID, uuid or subdomain. */
  forWrite: { byId: forWrite('id'), byDid: forWrite('did'), byDomain: forWrite('domain') },
  /** The live topics of some spaces (`$1`), of some access kinds (`$2`) when `ofAccess`. */
  topicsOfSpaces: { any: TOPICS_OF, ofAccess: `${TOPICS_OF} AND access_kind = ANY($2)` },
  /** One live topic (`$1`) of a space (`$2`). */
  topicOfSpace: `SELECT ${TOPIC_COLUMNS} FROM space_topics
  WHERE id = $1 AND space_id = $2 AND deleted_at IS NULL`,
  /** The public directory's pages, per combination of filters: `first`, `after` and `before` a cursor. */
  directoryPage: Object.fromEntries(
    DIRECTORY_COMBINATIONS.map((filters) => [
      directoryKey(filters),
      {
        first: directoryPage(filters, 'first'),
        after: directoryPage(filters, 'after'),
        before: directoryPage(filters, 'before'),
      },
    ]),
  ) as Record<string, { first: string; after: string; before: string }>,
  /** The live spaces where a person (`$1`) is an active member: `among` some uuids (`$2`), or `all`. */
  memberSpaces: {
    among:
      `SELECT ${spaceColumnsOf('s')} FROM spaces s INNER JOIN space_memberships m ON m.space_id = s.id ` +
      "AND m.member_did = $1 AND m.status = 'active' WHERE s.id = ANY($2) AND s.deleted_at IS NULL",
    all:
      `SELECT ${spaceColumnsOf('s')}, m.role AS membership_role FROM spaces s INNER JOIN space_memberships m ` +
      "ON m.space_id = s.id AND m.member_did = $1 AND m.status = 'active' WHERE s.deleted_at IS NULL",
  },
  /** Moves a space's (`$1`) last activity forward to `$2`. */
  recordActivity:
    'UPDATE spaces SET last_activity_at = GREATEST(COALESCE(last_activity_at, $2), $2), ' +
    'updated_at = CURRENT_TIMESTAMP WHERE id = $1',
  /**
   * One more active member of a space (`$1`) and the join's activity (`$2`): counted up under the
   * row lock rather than recounted, so a join costs the same in a space of any size
   * (docs/decisions/0109-join-announcements-as-a-job.md).
   */
  countJoin:
    'UPDATE spaces SET member_count = member_count + 1, ' +
    'last_activity_at = GREATEST(COALESCE(last_activity_at, $2), $2), updated_at = CURRENT_TIMESTAMP WHERE id = $1',
  /** Recounts a space's (`$1`) active members; `withActivity` also moves its activity to `$2`. */
  refreshCount: {
    plain:
      "UPDATE spaces SET member_count = (SELECT count(*) FROM space_memberships WHERE space_id = $1 AND status = 'active'), " +
      'updated_at = CURRENT_TIMESTAMP WHERE id = $1',
    withActivity:
      "UPDATE spaces SET member_count = (SELECT count(*) FROM space_memberships WHERE space_id = $1 AND status = 'active'), " +
      'last_activity_at = GREATEST(COALESCE(last_activity_at, $2), $2), updated_at = CURRENT_TIMESTAMP WHERE id = $1',
  },
  /** The live space `$1`, its row locked for the rest of the transaction. */
  lock: `SELECT ${SPACE_COLUMNS} FROM spaces WHERE id = $1 AND deleted_at IS NULL FOR UPDATE`,
  /**
   * Stores the head of a space's (`$1`) profile chain (`$2`…`$4`) if the stored head is still the
   * expected one: `over` the head `$5`, or `first` when none was stored.
   */
  storeProfileHead: {
    over:
      'UPDATE spaces SET profile_content_id = $2, profile_head_cid = $3, profile_document_cid = $4, ' +
      'updated_at = CURRENT_TIMESTAMP WHERE id = $1 AND profile_head_cid = $5',
    first:
      'UPDATE spaces SET profile_content_id = $2, profile_head_cid = $3, profile_document_cid = $4, ' +
      'updated_at = CURRENT_TIMESTAMP WHERE id = $1 AND profile_head_cid IS NULL',
  },
});

/** The old names of the statements the bench's twin and its tests compare against. */
export const SPACE_BY_ID = SPACES_STATEMENTS.live.byId;
export const SPACE_BY_DID = SPACES_STATEMENTS.live.byDid;
export const SPACE_BY_DOMAIN = SPACES_STATEMENTS.live.byDomain;
export const SPACE_FOR_WRITE_BY_ID = SPACES_STATEMENTS.forWrite.byId;
export const SPACE_FOR_WRITE_BY_DID = SPACES_STATEMENTS.forWrite.byDid;
export const SPACE_FOR_WRITE_BY_DOMAIN = SPACES_STATEMENTS.forWrite.byDomain;
export const TOPICS_OF_SPACES = SPACES_STATEMENTS.topicsOfSpaces.any;
export const TOPICS_OF_SPACES_WITH_ACCESS = SPACES_STATEMENTS.topicsOfSpaces.ofAccess;
export const TOPIC_OF_SPACE = SPACES_STATEMENTS.topicOfSpace;

/**
 * The directory page statement of `filters` past `seek`, and its parameters: the filters' values
 * (in DIRECTORY_FILTERS order), the keyset values, the limit.
 */
export function directoryPageStatement(
  filters: DirectoryFilters,
  seek: KeysetSeek,
): { sql: string; parameters: unknown[] } {
  const present: Record<DirectoryFilter, boolean> = {
    joinMode: Boolean(filters.joinMode),
    category: Boolean(filters.category),
    optedIn: filters.optedIn !== undefined,
    activeSince: Boolean(filters.activeSince),
  };
  const named = DIRECTORY_FILTERS.filter((filter) => present[filter]);
  const variants = SPACES_STATEMENTS.directoryPage[directoryKey(named)];
  const parameters: unknown[] = named.map((filter) => filters[filter]);
  if (!seek.values) return { sql: variants.first, parameters: [...parameters, seek.take] };
  return {
    sql: seek.backward ? variants.before : variants.after,
    parameters: [...parameters, seek.values[0], seek.values[1], seek.take],
  };
}

const LIVE_BY: Record<SpaceKey, string> = {
  did: SPACE_BY_DID,
  id: SPACE_BY_ID,
  domain: SPACE_BY_DOMAIN,
};
const FOR_WRITE_BY: Record<SpaceKey, string> = {
  did: SPACE_FOR_WRITE_BY_DID,
  id: SPACE_FOR_WRITE_BY_ID,
  domain: SPACE_FOR_WRITE_BY_DOMAIN,
};

/** Fields of a new space, as SpacesService.create writes them. */
export type NewSpace = Omit<Space, 'deletedAt' | 'createdAt' | 'updatedAt'>;

/** Every statement on `spaces`, and the live topics of spaces as other modules read them. */
@Injectable()
export class SpacesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A live space by one key; null when there is none. */
  async live(by: SpaceKey, key: string): Promise<Space | null> {
    const rows = await this.dataSource.query<SpaceRow[]>(LIVE_BY[by], [key]);
    return rows.length === 0 ? null : spaceFromRow(rows[0]);
  }

  /** The live space by one key, the person's membership there and the live topic `topicUuid`. */
  async forWrite(
    by: SpaceKey,
    key: string,
    did: string,
    topicUuid: string | null,
  ): Promise<ReturnType<typeof forWriteFromRow> | null> {
    const rows = await this.dataSource.query<SpaceForWriteRow[]>(FOR_WRITE_BY[by], [key, did, topicUuid]);
    return rows.length === 0 ? null : forWriteFromRow(rows[0]);
  }

  /** A live space by uuid through TypeORM (every column, deleted spaces skipped). */
  findById(spaceId: string, runner: EntityManager = this.dataSource.manager): Promise<Space | null> {
    return runner.getRepository(Space).findOne({ where: { id: spaceId } });
  }

  /** A space by uuid, deleted or not. */
  findWithDeleted(spaceId: string): Promise<Space | null> {
    return this.dataSource.getRepository(Space).findOne({ where: { id: spaceId }, withDeleted: true });
  }

  /** Whether a live space has the subdomain `domain`. */
  domainTaken(domain: string): Promise<boolean> {
    return this.dataSource.getRepository(Space).exists({ where: { domain } });
  }

  async insert(space: NewSpace, runner: EntityManager): Promise<void> {
    await runner.getRepository(Space).insert(space);
  }

  /** Writes only the named columns of one space. */
  async update(
    spaceId: string,
    changes: Partial<Space>,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await runner.update(Space, { id: spaceId }, changes);
  }

  async softDelete(spaceId: string, runner: EntityManager): Promise<void> {
    await runner.getRepository(Space).softDelete({ id: spaceId });
  }

  async topicsOfSpaces(spaceIds: string[], accessKinds?: TopicAccessKind[]): Promise<TopicView[]> {
    const rows = accessKinds
      ? await this.dataSource.query<TopicRow[]>(TOPICS_OF_SPACES_WITH_ACCESS, [spaceIds, accessKinds])
      : await this.dataSource.query<TopicRow[]>(TOPICS_OF_SPACES, [spaceIds]);
    return rows.map(topicFromRow);
  }

  async topicOfSpace(topicUuid: string, spaceId: string): Promise<TopicView | null> {
    const rows = await this.dataSource.query<TopicRow[]>(TOPIC_OF_SPACE, [topicUuid, spaceId]);
    return rows.length === 0 ? null : topicFromRow(rows[0]);
  }

  /** One page of the public directory (card columns only). */
  async directoryPage(filters: DirectoryFilters, seek: KeysetSeek): Promise<Space[]> {
    const { sql, parameters } = directoryPageStatement(filters, seek);
    return spaceCardsFromRows(await this.dataSource.query<SpaceCardRow[]>(sql, parameters));
  }

  async memberSpacesAmong(did: string, spaceIds: string[]): Promise<Space[]> {
    const rows = await this.dataSource.query<SpaceRow[]>(SPACES_STATEMENTS.memberSpaces.among, [
      did,
      spaceIds,
    ]);
    return rows.map(spaceFromRow);
  }

  async memberSpaces(did: string): Promise<{ space: Space; role: MemberRole }[]> {
    const rows = await this.dataSource.query<(SpaceRow & { membership_role: MemberRole })[]>(
      SPACES_STATEMENTS.memberSpaces.all,
      [did],
    );
    return rows.map((row) => ({ space: spaceFromRow(row), role: row.membership_role }));
  }

  async recordActivity(spaceId: string, at: Date, runner: EntityManager): Promise<void> {
    await runner.query(SPACES_STATEMENTS.recordActivity, [spaceId, at]);
  }

  async countJoin(spaceId: string, activityAt: Date, runner: EntityManager): Promise<void> {
    await runner.query(SPACES_STATEMENTS.countJoin, [spaceId, activityAt]);
  }

  async refreshCount(spaceId: string, activityAt: Date | undefined, runner: EntityManager): Promise<void> {
    await (activityAt
      ? runner.query(SPACES_STATEMENTS.refreshCount.withActivity, [spaceId, activityAt])
      : runner.query(SPACES_STATEMENTS.refreshCount.plain, [spaceId]));
  }

  /** The live space, locked for the rest of the runner's transaction; null when there is none. */
  async lock(spaceId: string, runner: EntityManager): Promise<Space | null> {
    const rows = await runner.query<SpaceRow[]>(SPACES_STATEMENTS.lock, [spaceId]);
    return rows.length === 0 ? null : spaceFromRow(rows[0]);
  }

  /** Stores a profile chain head over `expectedHeadCid` (null: none stored); false when it moved. */
  async storeProfileHead(
    spaceId: string,
    expectedHeadCid: string | null,
    next: { contentId: string | null; headCid: string | null; documentCid: string | null },
  ): Promise<boolean> {
    const values = [spaceId, next.contentId, next.headCid, next.documentCid];
    const [, affected] = await this.dataSource.query<[unknown[], number]>(
      expectedHeadCid === null
        ? SPACES_STATEMENTS.storeProfileHead.first
        : SPACES_STATEMENTS.storeProfileHead.over,
      expectedHeadCid === null ? values : [...values, expectedHeadCid],
    );
    return affected === 1;
  }

  /** Which of these media a space or a page still names (any row, deleted ones too). */
  async mediaNamed(mediaIds: string[], runner: EntityManager): Promise<string[]> {
    const rows = await runner.query<{ id: string }[]>(SPACES_STATEMENTS.mediaNamed, [mediaIds]);
    return rows.map((row) => row.id);
  }
}
