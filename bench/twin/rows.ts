import type { Pool, PoolClient } from 'pg';
import { POSTS_STATEMENTS } from '../../src/posts/repositories/posts.repository';
import {
  SPACE_MEMBERSHIPS_STATEMENTS,
  type FoundMembershipRow,
} from '../../src/spaces/repositories/space-memberships.repository';
import { SPACES_STATEMENTS } from '../../src/spaces/repositories/spaces.repository';
import { USERS_STATEMENTS } from '../../src/users/users.repository';

// Pure rules of the app, shared rather than copied (no framework in them).
export { wordedSummary } from '../../src/common/summaries/worded-summary';

/**
 * The reads the twin shares between scenarios, each the statement the app's repository declares
 * for the same purpose, imported (docs/decisions/0131-a-repository-per-module.md): never a copy.
 */

type Queryable = Pool | PoolClient;

/** A stored link (a space's or a profile's `links` column). */
export interface LinkRow {
  url: string;
  label: string | null;
  description: string | null;
}

/** Links as records answer them: these three members, in this order, whatever else is stored. */
export const linkRecords = (links: LinkRow[]) =>
  links.map((link) => ({ url: link.url, label: link.label, description: link.description }));

export interface SpaceRow {
  id: string;
  did: string;
  domain: string;
  display_name: string | null;
  description: string | null;
  avatar_media_id: string | null;
  header_media_id: string | null;
  links: LinkRow[];
  join_mode: string;
  is_public: boolean;
  site_mode: string;
  subscribe_enabled: boolean;
  category: string | null;
  verified_domain: string | null;
  application_questions: { question: string; isRequired: boolean }[];
  member_count: number;
  profile_content_id: string | null;
  profile_head_cid: string | null;
  last_activity_at: Date | null;
  created_at: Date;
}

/** SpaceDirectoryService.findByReference for a subdomain. */
export async function spaceByDomain(db: Queryable, domain: string): Promise<SpaceRow | null> {
  const { rows } = await db.query<SpaceRow>(SPACES_STATEMENTS.live.byDomain, [domain]);
  return rows[0] ?? null;
}

/** The statement PostAccessService.postInSpace sends (PostsRepository's). */
export const LIVE_POST_IN_SPACE = POSTS_STATEMENTS.livePostInSpace;

export interface TopicRow {
  id: string;
  space_id: string;
  name: string;
  access_kind: string;
  access_group_ids: string[];
}

/** The app's topic statements, as SpacesRepository declares them. */
export const TOPICS_OF_SPACES = SPACES_STATEMENTS.topicsOfSpaces.any;
export const TOPICS_OF_SPACES_WITH_ACCESS = SPACES_STATEMENTS.topicsOfSpaces.ofAccess;
export const TOPIC_OF_SPACE = SPACES_STATEMENTS.topicOfSpace;

/** SpaceDirectoryService.topicsOf: live topics of these spaces, of these access kinds when given. */
export async function topicsOf(
  db: Queryable,
  spaceIds: string[],
  accessKinds?: string[],
): Promise<TopicRow[]> {
  const { rows } = accessKinds
    ? await db.query<TopicRow>(TOPICS_OF_SPACES_WITH_ACCESS, [spaceIds, accessKinds])
    : await db.query<TopicRow>(TOPICS_OF_SPACES, [spaceIds]);
  return rows;
}

/** SpaceDirectoryService.topicView: a live topic of the space by uuid. */
export async function topicInSpace(
  db: Queryable,
  topicId: string,
  spaceId: string,
): Promise<TopicRow | null> {
  const { rows } = await db.query<TopicRow>(TOPIC_OF_SPACE, [topicId, spaceId]);
  return rows[0] ?? null;
}

export interface PostHeadRow {
  id: string;
  space_id: string;
  topic_id: string;
  author_did: string;
}

/** PostAccessService.postHeadInSpace: a live post's head (never its body), as post-access.service.ts reads it. */
export async function postHeadInSpace(
  db: Queryable,
  postId: string,
  spaceId: string,
): Promise<PostHeadRow | null> {
  const { rows } = await db.query<PostHeadRow>(POSTS_STATEMENTS.postHeadInSpace, [postId, spaceId]);
  return rows[0] ?? null;
}

export interface MembershipRow {
  role: string;
  status: string;
}

/** SpaceMembershipsRepository.find: the person's membership row in any state. */
export async function membershipOf(
  db: Queryable,
  spaceId: string,
  did: string,
): Promise<MembershipRow | null> {
  const { rows } = await db.query<FoundMembershipRow>(SPACE_MEMBERSHIPS_STATEMENTS.find, [spaceId, did]);
  return rows[0] ? { role: rows[0].SpaceMembership_role, status: rows[0].SpaceMembership_status } : null;
}

export interface AuthorRow {
  did: string;
  handle: string | null;
  display_name: string | null;
}

export type AuthorRecord = { did: string; displayName?: string; username?: string };

/** AuthorDirectoryService.authorsOf: one query for the distinct DIDs; people without an account get `{did}`. */
export async function authorsOf(db: Queryable, dids: readonly string[]): Promise<Map<string, AuthorRecord>> {
  const unique = [...new Set(dids)];
  const authors = new Map<string, AuthorRecord>(unique.map((did) => [did, { did }]));
  if (unique.length === 0) return authors;
  const { rows } = await db.query<AuthorRow>(USERS_STATEMENTS.authorsByDid, [unique]);
  for (const row of rows) {
    authors.set(row.did, {
      did: row.did,
      ...(row.display_name ? { displayName: row.display_name } : {}),
      ...(row.handle ? { username: row.handle } : {}),
    });
  }
  return authors;
}

/** PostPresenter.upvotedBy: which of these posts the viewer upvoted. */
export async function postsUpvotedBy(db: Queryable, did: string, postIds: string[]): Promise<Set<string>> {
  if (postIds.length === 0) return new Set();
  const { rows } = await db.query<{ post_id: string }>(POSTS_STATEMENTS.upvotedBy, [did, postIds]);
  return new Set(rows.map((row) => row.post_id));
}

/** PostAccessService.verdict for the views the bench uses (no group topics are seeded). */
export function readable(view: 'anonymous' | 'member', accessKind: string): boolean {
  if (accessKind === 'public') return true;
  if (view === 'anonymous') return false;
  if (accessKind === 'signedIn' || accessKind === 'members') return true;
  throw new Error(`the twin does not read ${accessKind} topics (no group topics are seeded)`);
}
