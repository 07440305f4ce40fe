import { KeysetSeek, readOrder, seekComparator } from '../../common/pagination/keyset';
import { Space, StoredApplicationQuestion, StoredSpaceLink } from '../entities/space.entity';
import type {
  JoinMode,
  MemberRole,
  MembershipStatus,
  SiteMode,
  TopicAccessKind,
} from '../domain/space-rules';
import type { TopicView } from '../domain/space-views';

/**
 * A live space by one key, on fixed SQL with an explicit mapping: every space route resolves its
 * space first, and TypeORM's find built the same statement again for each request
 * (docs/decisions/0084-hot-reads-on-fixed-sql-with-explicit-row-mapping.md).
 */
const COLUMNS = `id, did, domain, display_name, description, avatar_media_id, header_media_id,
  background_media_id, links, join_mode, is_public, site_mode, subscribe_enabled, category,
  discovery_opt_in, verified_domain, claimed_domain, application_questions, member_count,
  profile_content_id, profile_head_cid, profile_document_cid, last_activity_at, deleted_at,
  created_at, updated_at`;

const live = (key: 'id' | 'did' | 'domain') =>
  `SELECT ${COLUMNS} FROM spaces WHERE ${key} = $1 AND deleted_at IS NULL LIMIT 1`;

export const SPACE_BY_ID = live('id');
export const SPACE_BY_DID = live('did');
export const SPACE_BY_DOMAIN = live('domain');

/**
 * What a write needs in one statement (docs/decisions/0093-writes-resolve-the-space-and-the-writers-membership-in-one.md): the live space by one key (`$1`), the
 * membership row of a person (`$2`) there in any status, and a live topic of it (`$3`, a uuid or
 * null). Both joined rows are null when absent.
 */
const forWrite = (key: 'id' | 'did' | 'domain') =>
  `SELECT ${COLUMNS.split(',')
    .map((column) => `s.${column.trim()}`)
    .join(', ')},
     m.status AS membership_status, m.role AS membership_role,
     t.id AS topic_id, t.space_id AS topic_space_id, t.name AS topic_name,
     t.description AS topic_description, t.access_kind AS topic_access_kind,
     t.access_group_ids AS topic_access_group_ids, t.deleted_at AS topic_deleted_at
   FROM spaces s
   LEFT JOIN space_memberships m ON m.space_id = s.id AND m.member_did = $2
   LEFT JOIN space_topics t ON t.id = $3::uuid AND t.space_id = s.id AND t.deleted_at IS NULL
   WHERE s.${key} = $1 AND s.deleted_at IS NULL LIMIT 1`;

export const SPACE_FOR_WRITE_BY_ID = forWrite('id');
export const SPACE_FOR_WRITE_BY_DID = forWrite('did');
export const SPACE_FOR_WRITE_BY_DOMAIN = forWrite('domain');

export interface SpaceForWriteRow extends SpaceRow {
  membership_status: MembershipStatus | null;
  membership_role: MemberRole | null;
  topic_id: string | null;
  topic_space_id: string;
  topic_name: string;
  topic_description: string | null;
  topic_access_kind: TopicAccessKind;
  topic_access_group_ids: string[];
  topic_deleted_at: Date | null;
}

export interface SpaceRow {
  id: string;
  did: string;
  domain: string;
  display_name: string | null;
  description: string | null;
  avatar_media_id: string | null;
  header_media_id: string | null;
  background_media_id: string | null;
  links: StoredSpaceLink[];
  join_mode: JoinMode;
  is_public: boolean;
  site_mode: SiteMode;
  subscribe_enabled: boolean;
  category: string | null;
  discovery_opt_in: boolean;
  verified_domain: string | null;
  claimed_domain: string | null;
  application_questions: StoredApplicationQuestion[];
  member_count: number;
  profile_content_id: string | null;
  profile_head_cid: string | null;
  profile_document_cid: string | null;
  last_activity_at: Date | null;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export function spaceFromRow(row: SpaceRow): Space {
  const space = new Space();
  space.id = row.id;
  space.did = row.did;
  space.domain = row.domain;
  space.displayName = row.display_name;
  space.description = row.description;
  space.avatarMediaId = row.avatar_media_id;
  space.headerMediaId = row.header_media_id;
  space.backgroundMediaId = row.background_media_id;
  space.links = row.links;
  space.joinMode = row.join_mode;
  space.isPublic = row.is_public;
  space.siteMode = row.site_mode;
  space.subscribeEnabled = row.subscribe_enabled;
  space.category = row.category;
  space.discoveryOptIn = row.discovery_opt_in;
  space.verifiedDomain = row.verified_domain;
  space.claimedDomain = row.claimed_domain;
  space.applicationQuestions = row.application_questions;
  space.memberCount = row.member_count;
  space.profileContentId = row.profile_content_id;
  space.profileHeadCid = row.profile_head_cid;
  space.profileDocumentCid = row.profile_document_cid;
  space.lastActivityAt = row.last_activity_at;
  space.deletedAt = row.deleted_at;
  space.createdAt = row.created_at;
  space.updatedAt = row.updated_at;
  return space;
}

/** The live topics of some spaces (`$1`), optionally of some access kinds only (`$2`). */
const TOPIC_COLUMNS = 'id, space_id, name, description, access_kind, access_group_ids, deleted_at';
export const TOPICS_OF_SPACES = `SELECT ${TOPIC_COLUMNS} FROM space_topics
  WHERE space_id = ANY($1) AND deleted_at IS NULL`;
export const TOPICS_OF_SPACES_WITH_ACCESS = `${TOPICS_OF_SPACES} AND access_kind = ANY($2)`;
/** One live topic (`$1`) of a space (`$2`). */
export const TOPIC_OF_SPACE = `SELECT ${TOPIC_COLUMNS} FROM space_topics
  WHERE id = $1 AND space_id = $2 AND deleted_at IS NULL`;

export interface TopicRow {
  id: string;
  space_id: string;
  name: string;
  description: string | null;
  access_kind: TopicAccessKind;
  access_group_ids: string[];
  deleted_at: Date | null;
}

export function topicFromRow(row: TopicRow): TopicView {
  return {
    id: row.id,
    spaceId: row.space_id,
    name: row.name,
    description: row.description,
    accessKind: row.access_kind,
    accessGroupIds: row.access_group_ids,
    deletedAt: row.deleted_at,
  };
}

/** The space, the person's membership there (status and role) and the topic of a SpaceForWriteRow. */
export function forWriteFromRow(row: SpaceForWriteRow): {
  space: Space;
  membership: { status: MembershipStatus; role: MemberRole } | null;
  topic: TopicView | null;
} {
  const { membership_status: status, membership_role: role } = row;
  return {
    space: spaceFromRow(row),
    membership: status && role ? { status, role } : null,
    topic:
      row.topic_id === null
        ? null
        : topicFromRow({
            id: row.topic_id,
            space_id: row.topic_space_id,
            name: row.topic_name,
            description: row.topic_description,
            access_kind: row.topic_access_kind,
            access_group_ids: row.topic_access_group_ids,
            deleted_at: row.topic_deleted_at,
          }),
  };
}

/** A directory card query's raw row (alias `space`, the listing's card columns). */
export interface SpaceCardRow {
  space_id: string;
  space_did: string;
  space_domain: string;
  space_display_name: string | null;
  space_description: string | null;
  space_links: StoredSpaceLink[];
  space_member_count: number;
  space_verified_domain: string | null;
  space_category: string | null;
  space_last_activity_at: Date | null;
  space_avatar_media_id: string | null;
}

/** The directory listing's filters (SpaceListingQuery, normalized). */
export interface DirectoryFilters {
  joinMode?: JoinMode;
  category?: string | null;
  optedIn?: boolean;
  activeSince?: Date;
}

const DIRECTORY_CARD_COLUMNS = `"id" AS "space_id", "did" AS "space_did", "domain" AS "space_domain",
  "display_name" AS "space_display_name", "description" AS "space_description", "links" AS "space_links",
  "member_count" AS "space_member_count", "verified_domain" AS "space_verified_domain",
  "category" AS "space_category", "last_activity_at" AS "space_last_activity_at",
  "avatar_media_id" AS "space_avatar_media_id"`;

/**
 * One page of the public directory on fixed SQL (docs/decisions/0084-hot-reads-on-fixed-sql-with-explicit-row-mapping.md): the card columns of live public spaces with recorded activity,
 * filtered, past the keyset `seek` (`last_activity_at`, `id`, both descending; ascending when read
 * backward), `take` rows. `is_public AND deleted_at IS NULL` is the directory indexes' predicate.
 */
export function directoryPageStatement(
  filters: DirectoryFilters,
  seek: KeysetSeek,
): { sql: string; parameters: unknown[] } {
  const parameters: unknown[] = [];
  const bind = (value: unknown) => `$${parameters.push(value)}`;
  const where = ['"is_public"', '"last_activity_at" IS NOT NULL', '"deleted_at" IS NULL'];
  if (filters.joinMode) where.push(`"join_mode" = ${bind(filters.joinMode)}`);
  if (filters.category) where.push(`"category" = ${bind(filters.category)}`);
  if (filters.optedIn !== undefined) where.push(`"discovery_opt_in" = ${bind(filters.optedIn)}`);
  if (filters.activeSince) where.push(`"last_activity_at" >= ${bind(filters.activeSince)}`);
  const order = readOrder('DESC', seek.backward);
  if (seek.values) {
    const [activity, id] = seek.values;
    where.push(`("last_activity_at", "id") ${seekComparator(order)} (${bind(activity)}, ${bind(id)})`);
  }
  return {
    sql: `SELECT ${DIRECTORY_CARD_COLUMNS} FROM "spaces" WHERE ${where.join(' AND ')}
      ORDER BY "last_activity_at" ${order}, "id" ${order} LIMIT ${bind(seek.take)}`,
    parameters,
  };
}

/**
 * The directory's rows as spaces (the card columns only), mapped explicitly: TypeORM's entity
 * hydration showed in the page's profile (docs/decisions/0084-hot-reads-on-fixed-sql-with-explicit-row-mapping.md).
 */
export function spaceCardsFromRows(rows: SpaceCardRow[]): Space[] {
  return rows.map((row) => {
    const space = new Space();
    space.id = row.space_id;
    space.did = row.space_did;
    space.domain = row.space_domain;
    space.displayName = row.space_display_name;
    space.description = row.space_description;
    space.links = row.space_links;
    space.memberCount = row.space_member_count;
    space.verifiedDomain = row.space_verified_domain;
    space.category = row.space_category;
    space.lastActivityAt = row.space_last_activity_at;
    space.avatarMediaId = row.space_avatar_media_id;
    return space;
  });
}
