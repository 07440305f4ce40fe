import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/**
 * Whether the person `did` (an active member with standing role `role`) reads the post `postId`
 * (SQL expressions): the post is live, its topic live, and the topic's access lets them in
 * (members read every topic but `groups` ones, which need one of the groups, or the owner or admin
 * role). On published views only (`live_posts`, `live_space_topics`, `group_members`).
 */
export function readsPost(postId: string, did: string, role: string): string {
  return `EXISTS (SELECT 1 FROM live_posts lp JOIN live_space_topics lt ON lt.id = lp.topic_id
    WHERE lp.id = ${postId} AND (lt.access_kind <> 'groups' OR ${role} IN ('owner', 'admin')
      OR EXISTS (SELECT 1 FROM group_members gm WHERE gm.member_did = ${did}
                 AND lt.access_group_ids @> to_jsonb(gm.group_id::text))))`;
}

/** A live post as a notification's subject ($1 post id). */
export const POST_SUBJECT = 'SELECT id, space_id, author_did, display_title FROM live_posts WHERE id = $1';

/**
 * Readers of a post among its space's active members, in DID order ($1 space, $2 the actor never
 * told, $3 only these people or null, $4 admins only, $5 keyset DID or null, $6 post, $7 limit).
 * The post's topic is read once; only a `groups` topic needs a per-member check.
 */
export const READERS_OF_POST = `WITH topic AS (
         SELECT lt.access_kind, lt.access_group_ids FROM live_posts lp
           JOIN live_space_topics lt ON lt.id = lp.topic_id WHERE lp.id = $6)
       SELECT am.member_did AS did FROM topic, active_space_members am
        WHERE am.space_id = $1 AND am.member_did <> $2
          AND ($3::varchar[] IS NULL OR am.member_did = ANY($3))
          AND (NOT $4 OR am.role IN ('owner', 'admin'))
          AND ($5::varchar IS NULL OR am.member_did > $5)
          AND (topic.access_kind <> 'groups' OR am.role IN ('owner', 'admin')
               OR EXISTS (SELECT 1 FROM group_members gm WHERE gm.member_did = am.member_did
                          AND topic.access_group_ids @> to_jsonb(gm.group_id::text)))
        ORDER BY am.member_did
        LIMIT $7`;

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

/** Who may be told of activity on a post: active members of its space who read it now. */
@Injectable()
export class ContentAudience {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async post(postId: string, manager?: EntityManager): Promise<PostSubject | null> {
    const [row] = (await (manager ?? this.dataSource.manager).query(POST_SUBJECT, [postId])) as {
      id: string;
      space_id: string;
      author_did: string;
      display_title: string | null;
    }[];
    return row
      ? { id: row.id, spaceId: row.space_id, authorDid: row.author_did, displayTitle: row.display_title }
      : null;
  }

  /** Readers of the post among the space's active members, in DID order. */
  async readers(post: PostSubject, query: ReaderQuery, manager?: EntityManager): Promise<string[]> {
    const rows = (await (manager ?? this.dataSource.manager).query(READERS_OF_POST, [
      post.spaceId,
      query.except,
      query.only ?? null,
      query.adminsOnly ?? false,
      query.after ?? null,
      post.id,
      query.limit ?? 1000,
    ])) as { did: string }[];
    return rows.map((row) => row.did);
  }
}
