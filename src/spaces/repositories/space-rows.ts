import { KeysetSeek } from '../../common/pagination/keyset';
import { SpaceMembership } from '../entities/space-membership.entity';
import { SpacePage } from '../entities/space-page.entity';
import { SpaceTopic } from '../entities/space-topic.entity';
import { Space, StoredApplicationQuestion, StoredSpaceLink } from '../entities/space.entity';
import type {
  JoinMode,
  MemberRole,
  MembershipStatus,
  SiteMode,
  TopicAccessKind,
} from '../domain/space-rules';
import type { TopicView } from '../domain/space-views';

/** Every column of `spaces`, as a SpaceRow reads them. */
export const SPACE_COLUMNS = `id, did, domain, display_name, description, avatar_media_id, header_media_id,
  background_media_id, links, join_mode, is_public, site_mode, subscribe_enabled, category,
  discovery_opt_in, verified_domain, claimed_domain, application_questions, member_count,
  profile_content_id, profile_head_cid, profile_document_cid, last_activity_at, deleted_at,
  created_at, updated_at`;

/** SPACE_COLUMNS of the table aliased `alias`. */
export const spaceColumnsOf = (alias: string): string =>
  SPACE_COLUMNS.split(',')
    .map((column) => `${alias}.${column.trim()}`)
    .join(', ');

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

/** The columns of a TopicRow. */
export const TOPIC_COLUMNS = 'id, space_id, name, description, access_kind, access_group_ids, deleted_at';

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

export const DIRECTORY_CARD_COLUMNS = `"id" AS "space_id", "did" AS "space_did", "domain" AS "space_domain",
  "display_name" AS "space_display_name", "description" AS "space_description", "links" AS "space_links",
  "member_count" AS "space_member_count", "verified_domain" AS "space_verified_domain",
  "category" AS "space_category", "last_activity_at" AS "space_last_activity_at",
  "avatar_media_id" AS "space_avatar_media_id"`;

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

/**
 * A keyset listing's three fixed variants (docs/decisions/0094-one-read-order-rule-for-keyset-listings.md):
 * `first` (no cursor), `after` (past the cursor in the listing's order) and `before` (read
 * backward, in the opposite order). `where` holds `$1`…`$n`; the keyset values follow, then the
 * limit. Declared once, at load, so each variant is a fixed statement in docs/queries.
 */
export interface KeysetVariants {
  [variant: string]: string;
  first: string;
  after: string;
  before: string;
}

export function keysetVariants(
  select: string,
  where: string,
  parameters: number,
  columns: string[],
  direction: 'ASC' | 'DESC',
): KeysetVariants {
  const reverse = direction === 'ASC' ? 'DESC' : 'ASC';
  const order = (dir: string) => `ORDER BY ${columns.map((column) => `${column} ${dir}`).join(', ')}`;
  const seek = (comparator: string) =>
    `(${columns.join(', ')}) ${comparator} (${columns.map((_, i) => `$${parameters + 1 + i}`).join(', ')})`;
  const past = parameters + columns.length + 1;
  return {
    first: `${select} WHERE ${where} ${order(direction)} LIMIT $${parameters + 1}`,
    after: `${select} WHERE ${where} AND ${seek(direction === 'ASC' ? '>' : '<')} ${order(direction)} LIMIT $${past}`,
    before: `${select} WHERE ${where} AND ${seek(direction === 'ASC' ? '<' : '>')} ${order(reverse)} LIMIT $${past}`,
  };
}

/** The variant of `seek` and its parameters after the listing's own `parameters`. */
export function keysetStatement(
  variants: KeysetVariants,
  parameters: unknown[],
  seek: KeysetSeek,
): [sql: string, parameters: unknown[]] {
  if (!seek.values) return [variants.first, [...parameters, seek.take]];
  return [seek.backward ? variants.before : variants.after, [...parameters, ...seek.values, seek.take]];
}

/** The columns of a MembershipRow. */
export const MEMBERSHIP_COLUMNS =
  'space_id, member_did, role, status, joined_at, status_message, banned_at, banned_by_did, created_at, updated_at';

export interface MembershipRow {
  space_id: string;
  member_did: string;
  role: MemberRole;
  status: MembershipStatus;
  joined_at: Date | null;
  status_message: string | null;
  banned_at: Date | null;
  banned_by_did: string | null;
  created_at: Date;
  updated_at: Date;
}

export function membershipFromRow(row: MembershipRow): SpaceMembership {
  const membership = new SpaceMembership();
  membership.spaceId = row.space_id;
  membership.memberDid = row.member_did;
  membership.role = row.role;
  membership.status = row.status;
  membership.joinedAt = row.joined_at;
  membership.statusMessage = row.status_message;
  membership.bannedAt = row.banned_at;
  membership.bannedByDid = row.banned_by_did;
  membership.createdAt = row.created_at;
  membership.updatedAt = row.updated_at;
  return membership;
}

/** The columns of a SpaceTopicRow. */
export const SPACE_TOPIC_COLUMNS =
  'id, space_id, name, name_key, description, access_kind, access_group_ids, created_at, updated_at, deleted_at';

export interface SpaceTopicRow extends TopicRow {
  name_key: string;
  created_at: Date;
  updated_at: Date;
}

export function spaceTopicFromRow(row: SpaceTopicRow): SpaceTopic {
  const topic = new SpaceTopic();
  topic.id = row.id;
  topic.spaceId = row.space_id;
  topic.name = row.name;
  topic.nameKey = row.name_key;
  topic.description = row.description;
  topic.accessKind = row.access_kind;
  topic.accessGroupIds = row.access_group_ids;
  topic.createdAt = row.created_at;
  topic.updatedAt = row.updated_at;
  topic.deletedAt = row.deleted_at;
  return topic;
}

/** The columns of a SpacePageRow. */
export const SPACE_PAGE_COLUMNS =
  'id, space_id, title, slug, body, cover_media_id, sort_order, enabled, created_at, updated_at';

export interface SpacePageRow {
  id: string;
  space_id: string;
  title: string;
  slug: string;
  body: string;
  cover_media_id: string | null;
  sort_order: number;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

export function spacePageFromRow(row: SpacePageRow): SpacePage {
  const page = new SpacePage();
  page.id = row.id;
  page.spaceId = row.space_id;
  page.title = row.title;
  page.slug = row.slug;
  page.body = row.body;
  page.coverMediaId = row.cover_media_id;
  page.sortOrder = row.sort_order;
  page.enabled = row.enabled;
  page.createdAt = row.created_at;
  page.updatedAt = row.updated_at;
  return page;
}
