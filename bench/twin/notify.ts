import type { Pool } from 'pg';
import { TwinRefusal } from './context';

/**
 * ContentNotifier after a comment or an upvote, bare: when the post's author is not the one who
 * acted, the post as the notification's subject and whether its author still reads it (the texts
 * of content-audience.ts). The bench's authors are not members of the bench space, so nobody is
 * told; a twin that would have to write a notification refuses instead.
 */

/** content-audience.ts: the post as a notification's subject ($1 post id). */
export const POST_SUBJECT = 'SELECT id, space_id, author_did, display_title FROM live_posts WHERE id = $1';

/** content-audience.ts: readers of a post among its space's active members. */
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

/** What ContentNotifier does after commit for an act of `actorDid` on a post by `authorDid`. */
export async function tellPostAuthor(
  pool: Pool,
  postId: string,
  authorDid: string,
  actorDid: string,
): Promise<void> {
  if (authorDid === actorDid) return;
  const { rows } = await pool.query<{ id: string; space_id: string; author_did: string }>(POST_SUBJECT, [
    postId,
  ]);
  const post = rows[0];
  if (!post) return;
  const readers = await pool.query(READERS_OF_POST, [
    post.space_id,
    actorDid,
    [post.author_did],
    false,
    null,
    post.id,
    10_000,
  ]);
  if (readers.rows.length > 0) throw new TwinRefusal(500, 'the twin writes no notifications');
}
