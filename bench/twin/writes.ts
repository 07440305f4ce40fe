import { v7 as uuidv7 } from 'uuid';
import {
  applyFold,
  attachmentTokensOf,
  bareUrlsOf,
  displayTitleOf,
  excerptOf,
  slugOf,
} from '../../src/posts/domain/post-text';
import { COMMENTS_STATEMENTS } from '../../src/comments/comments.repository';
import { POSTS_STATEMENTS } from '../../src/posts/repositories/posts.repository';
import { SPACES_STATEMENTS } from '../../src/spaces/repositories/spaces.repository';
import { verifyBareProof } from './auth';
import { postDocument } from '../../src/posts/domain/post-document';
import { originOf, signGenesis, storeGenesis, type NewChain } from './content-chain';
import { commentItems, type CommentRow } from './comments';
import { answer, TwinRefusal, uuidOf, wireId, type TwinHandler } from './context';
import { announcePost, recordAnnouncement } from './announce';
import { tellPostAuthor } from './notify';
import { card } from './posts';
import { postHeadInSpace, readable, topicInSpace, type SpaceRow } from './rows';

/**
 * The writes, bare: each reads what the app's write needs once (the proof with its jti reserved,
 * the space, the writer's membership, the topic or the post), writes the same rows with the app's
 * statements inside one transaction, and answers the same JSON: the same statements as the app,
 * in number and in text (the counts beside each scenario show it).
 */

/**
 * The active member's space, else the refusal the app would give: SpaceGrantAccessService.forWrite, the
 * space and the writer's membership in one statement (no topic asked for).
 */
async function writerSpace(
  pool: Parameters<TwinHandler>[0]['pool'],
  domain: string,
  did: string,
): Promise<SpaceRow> {
  const { rows } = await pool.query<SpaceForWriteRow>(SPACE_FOR_WRITE_BY_DOMAIN, [domain, did, null]);
  const space = rows[0];
  if (!space) throw new TwinRefusal(404, 'no such space');
  if (space.membership_status !== 'active') throw new TwinRefusal(403, 'not a member');
  return space;
}

/** PostAccessService.postReadableByWriter: the post's head in the space, then its topic. */
async function postOfWriter(
  pool: Parameters<TwinHandler>[0]['pool'],
  space: SpaceRow,
  wirePostId: string,
): Promise<{ id: string; author_did: string }> {
  const id = uuidOf('post', wirePostId);
  const post = id ? await postHeadInSpace(pool, id, space.id) : null;
  if (!post) throw new TwinRefusal(404, 'no such post');
  const topic = await topicInSpace(pool, post.topic_id, space.id);
  if (!topic || !readable('member', topic.access_kind)) throw new TwinRefusal(404, 'unreadable post');
  return post;
}

/** SpacesRepository.forWrite by subdomain: the space, the caller's membership and the topic. */
const SPACE_FOR_WRITE_BY_DOMAIN = SPACES_STATEMENTS.forWrite.byDomain;

interface SpaceForWriteRow extends SpaceRow {
  membership_status: string | null;
  topic_id: string | null;
  topic_name: string;
  topic_access_kind: string;
}

/**
 * POST /v1/spaces/{space}/posts: 201 with the full post, in the app's statements: the space with
 * the caller's membership and the topic in one read; in one transaction the post with its count
 * and its author's record, the space's activity and, in a public topic of a public space, the
 * genesis of its content chain (signed before, bench/twin/content-chain.ts). The answer is built
 * from what was written.
 */
export const postCreate: TwinHandler = async ({ pool, request, url, body, webDomain }) => {
  const proof = await verifyBareProof(pool, request);
  const input = JSON.parse(body.toString('utf8')) as { topic: string; title?: string; body: string };
  const topicId = uuidOf('topic', input.topic);
  const { rows } = await pool.query<SpaceForWriteRow>(SPACE_FOR_WRITE_BY_DOMAIN, [
    decodeURIComponent(url.pathname.split('/')[3]),
    proof.did,
    topicId,
  ]);
  const space = rows[0];
  if (!space) throw new TwinRefusal(404, 'no such space');
  if (space.membership_status !== 'active') throw new TwinRefusal(403, 'not a member');
  if (space.topic_id === null || !readable('member', space.topic_access_kind))
    throw new TwinRefusal(404, 'no such topic');
  const topic = { id: space.topic_id, name: space.topic_name, access_kind: space.topic_access_kind };
  const owner = space.is_public && topic.access_kind === 'public' ? await originOf(pool) : null;
  const title = typeof input.title === 'string' && input.title.trim() !== '' ? input.title.trim() : null;
  if (attachmentTokensOf(input.body).length > 0) throw new TwinRefusal(400, 'inline images');
  const now = new Date();
  const id = uuidv7();
  const slug = slugOf(title, input.body);
  const excerpt = excerptOf(input.body);
  const displayTitle = displayTitleOf(title, input.body);
  let chain: NewChain | null = owner
    ? signGenesis(owner, postDocument({ title, body: input.body, publishedAt: now, authorDid: proof.did }))
    : null;
  let account: { handle: string | null; displayName: string | null } | undefined;
  let outboxId = '';
  const client = await pool.connect();
  try {
    await client.query('START TRANSACTION');
    const written = await client.query<{ handle: string | null; displayName: string | null }>(
      POSTS_STATEMENTS.insert,
      [
        id,
        space.id,
        topic.id,
        proof.did,
        title,
        input.body,
        excerpt,
        displayTitle,
        now,
        slug,
        '[]',
        0,
        0,
        false,
        now,
        now,
        null,
        chain?.contentId ?? null,
        chain?.headCid ?? null,
        chain?.documentCid ?? null,
        topic.id,
        space.id,
        title ? 0 : 1,
        title ? 1 : 0,
        proof.did,
      ],
    );
    account = written.rows[0];
    await recordActivity(client, space.id, now);
    outboxId = await recordAnnouncement(client, id, now);
    if (owner && chain) {
      const stored = await storeGenesis(client, owner, chain);
      if (stored.headCid !== chain.headCid) {
        chain = stored;
        await client.query(POSTS_STATEMENTS.setChainColumns, [
          stored.contentId,
          stored.headCid,
          stored.documentCid,
          id,
        ]);
      }
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  announcePost(pool, id, now, outboxId);
  const author = {
    did: proof.did,
    ...(account?.displayName ? { displayName: account.displayName } : {}),
    ...(account?.handle ? { username: account.handle } : {}),
  };
  const row = {
    id,
    space_id: space.id,
    topic_id: topic.id,
    author_did: proof.did,
    title,
    excerpt,
    display_title: displayTitle,
    card_text_at: now,
    slug,
    upvote_count: 0,
    comment_count: 0,
    published_at: now,
    updated_at: now,
    content_id: chain?.contentId ?? null,
    head_cid: chain?.headCid ?? null,
    stale_body: null,
  };
  const { body: shown, folded } = applyFold(input.body);
  const links = bareUrlsOf(shown).map((link, sortOrder) => ({
    url: link,
    title: null,
    description: null,
    siteName: null,
    sortOrder,
  }));
  if (shown.toLowerCase().includes(`.${webDomain.toLowerCase()}`))
    throw new TwinRefusal(500, 'the twin resolves no internal links');
  return answer(
    {
      ...card(row, space, author, false, webDomain),
      body: shown,
      attachments: [],
      bodyMedia: [],
      topics: [{ id: wireId('topic', topic.id), name: topic.name }],
      ...(folded ? { folded: true } : {}),
      ...(links.length > 0 ? { links } : {}),
    },
    201,
  );
};

/** SpacesRepository.recordActivity's statement. */
async function recordActivity(
  client: { query: (sql: string, values: unknown[]) => Promise<unknown> },
  spaceId: string,
  at: Date,
): Promise<void> {
  await client.query(SPACES_STATEMENTS.recordActivity, [spaceId, at]);
}

/** POST /v1/spaces/{space}/posts/{postId}/comments (a root comment): 201 with the comment. */
export const commentCreate: TwinHandler = async ({ pool, request, url, body }) => {
  const proof = await verifyBareProof(pool, request);
  const input = JSON.parse(body.toString('utf8')) as { body?: string };
  if (typeof input.body !== 'string' || /attachment:\/\//i.test(input.body))
    throw new TwinRefusal(400, 'bad comment');
  const parts = url.pathname.split('/');
  const space = await writerSpace(pool, decodeURIComponent(parts[3]), proof.did);
  const { id: postId, author_did: authorDid } = await postOfWriter(pool, space, parts[5]);
  const now = new Date();
  const comment: CommentRow = {
    id: uuidv7(),
    post_id: postId,
    parent_comment_id: null,
    author_did: proof.did,
    body: input.body,
    upvote_count: 0,
    reply_count: 0,
    published_at: now,
    activity_at: now,
    deleted_at: null,
  };
  const client = await pool.connect();
  try {
    await client.query('START TRANSACTION');
    await client.query(COMMENTS_STATEMENTS.insert, [
      comment.id,
      postId,
      space.id,
      null,
      proof.did,
      input.body,
      '[]',
      0,
      0,
      now,
      now,
      now,
      null,
    ]);
    await client.query(POSTS_STATEMENTS.commentCount.added, [postId]);
    await recordActivity(client, space.id, now);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  await tellPostAuthor(pool, postId, authorDid, proof.did);
  const [item] = await commentItems(pool, null, [comment]);
  const { activityAt: _activityAt, ...created } = item;
  return answer(created, 201);
};

/** PUT /v1/spaces/{space}/posts/{postId}/upvote: 200 `{upvoted: true, upvoteCount}`. */
export const postUpvote: TwinHandler = async ({ pool, request, url }) => {
  const proof = await verifyBareProof(pool, request);
  const parts = url.pathname.split('/');
  const space = await writerSpace(pool, decodeURIComponent(parts[3]), proof.did);
  const post = await postOfWriter(pool, space, parts[5]);
  const client = await pool.connect();
  let count: number;
  let changed: boolean;
  try {
    await client.query('START TRANSACTION');
    const result = await client.query<{ count: number; changed: boolean }>(POSTS_STATEMENTS.upvote, [
      post.id,
      proof.did,
      new Date(),
    ]);
    await client.query('COMMIT');
    count = result.rows[0]?.count ?? 0;
    changed = result.rows[0]?.changed ?? false;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  if (changed) await tellPostAuthor(pool, post.id, post.author_did, proof.did);
  return answer({ upvoted: true, upvoteCount: Math.max(0, Number(count)) });
};
