import type { Pool } from 'pg';
import { POST_READERS_STATEMENTS } from '../../src/posts/repositories/post-readers.repository';
import { TwinRefusal } from './context';

/**
 * ContentSubscriber after a comment or an upvote, bare: when the post's author is not the one who
 * acted, the post as the notification's subject and whether its author still reads it (the statements
 * of PostReadersRepository). The bench's authors are not members of the bench space, so nobody is
 * told; a twin that would have to write a notification refuses instead.
 */

/** The post as a notification's subject ($1 post id), and the readers of a post (PostReadersRepository's). */
export const POST_SUBJECT = POST_READERS_STATEMENTS.postSubject;
export const READERS_OF_POST = POST_READERS_STATEMENTS.readersOfPost;

/** What ContentSubscriber does after commit for an act of `actorDid` on a post by `authorDid`. */
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
