import type { Pool } from 'pg';
import { COMMENTS_STATEMENTS } from '../../src/comments/comments.repository';
import { verifyBareProof } from './auth';
import { answer, TwinRefusal, uuidOf, wireId, type TwinContext, type TwinHandler } from './context';
import {
  authorsOf,
  membershipOf,
  postHeadInSpace,
  readable,
  spaceByDomain,
  topicInSpace,
  type SpaceRow,
} from './rows';

/**
 * A post's comment thread for a member, bare: the proof, the readable post (space, membership,
 * post, topic), one keyset page of root comments (newest activity first), authors and the
 * viewer's comment upvotes in parallel.
 */

export interface CommentRow {
  id: string;
  post_id: string;
  parent_comment_id: string | null;
  author_did: string;
  body: string | null;
  upvote_count: number;
  reply_count: number;
  published_at: Date;
  activity_at: Date;
  deleted_at: Date | null;
}

/** PostAccessService.readablePost for a member (the proof's signer): the space and the post's uuid. */
export async function readablePostOfMember(
  pool: Pool,
  domain: string,
  wirePostId: string,
  did: string,
): Promise<{ space: SpaceRow; postId: string; authorDid: string }> {
  const space = await spaceByDomain(pool, domain);
  if (!space) throw new TwinRefusal(404, 'no such space');
  const membership = await membershipOf(pool, space.id, did);
  if (membership?.status !== 'active') throw new TwinRefusal(500, 'the twin serves members only');
  const id = uuidOf('post', wirePostId);
  const post = id ? await postHeadInSpace(pool, id, space.id) : null;
  if (!post) throw new TwinRefusal(404, 'no such post');
  const topic = await topicInSpace(pool, post.topic_id, space.id);
  if (!topic || !readable('member', topic.access_kind)) throw new TwinRefusal(404, 'unreadable post');
  return { space, postId: post.id, authorDid: post.author_did };
}

/**
 * CommentsService.items: authors of the live ones and the viewer's upvotes, in parallel; no viewer
 * (a comment just written, as the app's create reads it): no upvotes looked up.
 */
export async function commentItems(
  pool: Pool,
  viewer: string | null,
  rows: CommentRow[],
): Promise<Record<string, unknown>[]> {
  const live = rows.filter((row) => !row.deleted_at);
  const [authors, upvoted] = await Promise.all([
    authorsOf(
      pool,
      live.map((row) => row.author_did),
    ),
    rows.length === 0 || viewer === null
      ? Promise.resolve(new Set<string>())
      : pool
          .query<{ comment_id: string }>(COMMENTS_STATEMENTS.upvotedBy, [viewer, rows.map((row) => row.id)])
          .then((result) => new Set(result.rows.map((row) => row.comment_id))),
  ]);
  return rows.map((row) => ({
    id: wireId('comment', row.id),
    postId: wireId('post', row.post_id),
    ...(row.parent_comment_id ? { parentCommentId: wireId('comment', row.parent_comment_id) } : {}),
    author: row.deleted_at ? null : (authors.get(row.author_did) ?? null),
    body: row.deleted_at ? null : row.body,
    attachments: [],
    publishedAt: row.published_at.toISOString(),
    activityAt: row.activity_at.toISOString(),
    upvoteCount: row.upvote_count,
    replyCount: row.parent_comment_id ? 0 : row.reply_count,
    viewer: { upvoted: upvoted.has(row.id) },
  }));
}

/** GET /v1/spaces/{space}/posts/{postId}/comments?limit=… (roots, newest activity first). */
export const commentThread: TwinHandler = async (context: TwinContext) => {
  const { pool, url, cursors } = context;
  const proof = await verifyBareProof(pool, context.request);
  const parts = url.pathname.split('/');
  const { postId } = await readablePostOfMember(pool, decodeURIComponent(parts[3]), parts[5], proof.did);
  const limit = Number(url.searchParams.get('limit') ?? 20);
  const listing = 'comments:roots:newest';
  const cursor = url.searchParams.get('after');
  const after = cursor === null ? null : cursors.decode(listing, cursor);
  if (cursor !== null && (after === null || after.length !== 2)) throw new TwinRefusal(400, 'Invalid cursor');
  // CommentsRepository.page: a post's roots, newest activity first.
  const statements = COMMENTS_STATEMENTS.page.roots.newest;
  const { rows } = await pool.query<CommentRow>(
    after ? statements.after : statements.first,
    after ? [postId, ...after, limit + 1] : [postId, limit + 1],
  );
  const page = rows.slice(0, limit);
  const encode = (row: CommentRow | undefined) =>
    row ? cursors.encode(listing, [row.activity_at.toISOString(), row.id]) : null;
  return answer({
    items: await commentItems(pool, proof.did, page),
    nextCursor: rows.length > limit ? encode(page[page.length - 1]) : null,
    previousCursor: after ? encode(page[0]) : null,
  });
};
