import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { defineStatements } from '../../infrastructure/database/statements';

/**
 * Who may read a post, in SQL: the one rule every statement on readers uses, here and in other
 * modules (docs/decisions/0134-who-reads-a-post-is-one-rule.md; PostAccessService.verdict's member rules
 * for one view and topic). An active member reads every live topic of their space but a `groups` one, which
 * needs one of its groups, or the owner or admin role. `topic` is an alias of `live_space_topics`
 * (or a row with its `access_kind` and `access_group_ids`), `role` and `did` SQL expressions of
 * the member's standing role and DID. Topics, standings and groups come from the views the spaces
 * and memberships modules publish.
 */
export function memberReadsTopic(topic: string, role: string, did: string): string {
  return (
    `(${topic}.access_kind <> 'groups' OR ${role} IN ('owner', 'admin') ` +
    `OR EXISTS (SELECT 1 FROM group_members gm WHERE gm.member_did = ${did} ` +
    `AND ${topic}.access_group_ids @> to_jsonb(gm.group_id::text)))`
  );
}

/**
 * Whether the active member `did` (standing role `role`) reads the post `postId` now (SQL
 * expressions, for a statement of another module that filters by it): the post live, its topic
 * live, and `memberReadsTopic`. On published views only (`live_posts`, `live_space_topics`,
 * `group_members`).
 */
export function memberReadsPost(postId: string, did: string, role: string): string {
  return (
    'EXISTS (SELECT 1 FROM live_posts lp JOIN live_space_topics lt ON lt.id = lp.topic_id ' +
    `WHERE lp.id = ${postId} AND ${memberReadsTopic('lt', role, did)})`
  );
}

/**
 * Whether the reader `did` (a DID, or NULL for nobody signed in) reads the topic `topic` of the
 * space `space` (a `live_spaces` alias), with `standing` their `space_member_standings` row (NULL
 * columns when none): an active member by `memberReadsTopic`; anyone else only in a space with a
 * public profile, `public` topics, and `signedIn` ones when signed in and neither a former nor a
 * banned member (SpaceGrantAccessService.forRead's visitor view; a credential's narrowing aside).
 */
export function readerReadsTopic(topic: string, space: string, standing: string, did: string): string {
  return (
    `(CASE WHEN ${standing}.status = 'active' THEN ${memberReadsTopic(topic, `${standing}.role`, did)} ` +
    `ELSE ${space}.is_public AND (${topic}.access_kind = 'public' OR (${topic}.access_kind = 'signedIn' ` +
    `AND ${did}::varchar IS NOT NULL AND (${standing}.status IS NULL OR ${standing}.status = 'invited'))) END)`
  );
}

/** The posts module's statements on who reads posts (docs/decisions/0131-a-repository-per-module.md). */
export const POST_READERS_STATEMENTS = defineStatements('PostReadersRepository', {
  /** Of the posts $1, those the person $2 reads now as an active member of their space. */
  readableByMember:
    'SELECT p.id FROM posts p JOIN live_space_topics t ON t.id = p.topic_id ' +
    'JOIN active_space_members m ON m.space_id = p.space_id AND m.member_did = $2 ' +
    `WHERE p.id = ANY($1::uuid[]) AND p.deleted_at IS NULL AND ${memberReadsTopic('t', 'm.role', '$2')}`,
  /** The live topics of the spaces $1 that the reader $2 (NULL: nobody signed in) reads. */
  readableTopics:
    'SELECT t.id FROM live_space_topics t JOIN live_spaces s ON s.id = t.space_id ' +
    'LEFT JOIN space_member_standings st ON st.space_id = t.space_id AND st.member_did = $2 ' +
    `WHERE t.space_id = ANY($1::uuid[]) AND ${readerReadsTopic('t', 's', 'st', '$2')}`,
  /** A live post as a notification's subject ($1 post id). */
  postSubject: 'SELECT id, space_id, author_did, display_title FROM live_posts WHERE id = $1',
  /**
   * Readers of a post among its space's active members, in DID order ($1 space, $2 the actor never
   * told, $3 only these people or null, $4 admins only, $5 keyset DID or null, $6 post, $7 limit).
   * The post's topic is read once; only a `groups` topic needs a per-member check.
   */
  readersOfPost:
    'WITH topic AS (SELECT lt.access_kind, lt.access_group_ids FROM live_posts lp ' +
    'JOIN live_space_topics lt ON lt.id = lp.topic_id WHERE lp.id = $6) ' +
    'SELECT am.member_did AS did FROM topic, active_space_members am ' +
    'WHERE am.space_id = $1 AND am.member_did <> $2 AND ($3::varchar[] IS NULL OR am.member_did = ANY($3)) ' +
    "AND (NOT $4 OR am.role IN ('owner', 'admin')) AND ($5::varchar IS NULL OR am.member_did > $5) " +
    `AND ${memberReadsTopic('topic', 'am.role', 'am.member_did')} ` +
    'ORDER BY am.member_did LIMIT $7',
});

/** A live post as content notifications describe it. */
export interface PostSubject {
  id: string;
  spaceId: string;
  authorDid: string;
  displayTitle: string | null;
}

export interface ReaderQuery {
  /** Only these people (the author of a post or comment), else every active member. */
  only?: string[];
  adminsOnly?: boolean;
  /** The person who acted: never told of their own act. */
  except: string;
  /** Keyset: DIDs after this one, in DID order, at most `limit`. */
  after?: string | null;
  limit?: number;
}

/** The statements on who reads which posts and topics. */
@Injectable()
export class PostReadersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async readableByMember(did: string, postIds: string[]): Promise<string[]> {
    const rows = await this.dataSource.query<{ id: string }[]>(POST_READERS_STATEMENTS.readableByMember, [
      postIds,
      did,
    ]);
    return rows.map((row) => row.id);
  }

  async readableTopics(readerDid: string | null, spaceIds: string[]): Promise<string[]> {
    const rows = await this.dataSource.query<{ id: string }[]>(POST_READERS_STATEMENTS.readableTopics, [
      spaceIds,
      readerDid,
    ]);
    return rows.map((row) => row.id);
  }

  async postSubject(
    postId: string,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<PostSubject | null> {
    const [row] = await runner.query<
      { id: string; space_id: string; author_did: string; display_title: string | null }[]
    >(POST_READERS_STATEMENTS.postSubject, [postId]);
    return row
      ? { id: row.id, spaceId: row.space_id, authorDid: row.author_did, displayTitle: row.display_title }
      : null;
  }

  async readersOfPost(
    post: Pick<PostSubject, 'id' | 'spaceId'>,
    query: ReaderQuery,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const rows = await runner.query<{ did: string }[]>(POST_READERS_STATEMENTS.readersOfPost, [
      post.spaceId,
      query.except,
      query.only ?? null,
      query.adminsOnly ?? false,
      query.after ?? null,
      post.id,
      query.limit ?? 1000,
    ]);
    return rows.map((row) => row.did);
  }
}
