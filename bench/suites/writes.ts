import type { Pool } from 'pg';
import { VOLATILE, type PlanContext, type Scenario, type WrittenContext } from '../scenario-kit';
import { liveCount } from '../request-plan';
import { BIG_SPACE, BIG_SPACE_DOMAIN, MEMBERS_TOPIC, PUBLIC_TOPICS, topicId } from '../seed-plan';

/**
 * The writes, each signed per request with a fresh jti (the service refuses a replay), rotating
 * over the four bench actors (bench/actors.ts): a post in the big space's members topic (no
 * content chain), a root comment and an upvote, each on a different post of the big space per
 * request (so no request waits on another's row lock, and no upvote repeats).
 *
 * Verify masks what a write makes on the spot (the new row's id, its timestamps) and then reads
 * back both sides' rows and compares every column but those.
 */

const writerProof = (context: PlanContext) => ({
  actors: context.actors.writers,
  perRequest: true,
  audience: context.audience,
});

const postBody = (topic: number) =>
  JSON.stringify({
    topic: `topic_${topicId(BIG_SPACE, topic).replace(/-/g, '')}`,
    title: 'A benchmark post',
    body:
      'Written by the benchmark. It has a [link](https://example.com/bench) and a bare one: ' +
      'https://example.org/bench/post.\n\nA second paragraph with **bold** text.',
  });

const uuidsIn = (body: string, prefix: string): string[] =>
  [...body.matchAll(new RegExp(`"id":"${prefix}_([0-9a-f]{32})"`, 'g'))].map(([, hex]) =>
    hex.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5'),
  );

/** Both rows, every column but `skip`, as JSON, with the differences listed. */
async function sameRows(pool: Pool, table: string, ids: [string, string], skip: string[]): Promise<string[]> {
  const { rows } = await pool.query<Record<string, unknown>>(
    `SELECT * FROM ${table} WHERE id = ANY($1::uuid[])`,
    [ids],
  );
  const app = rows.find((row) => row.id === ids[0]);
  const twin = rows.find((row) => row.id === ids[1]);
  if (!app || !twin)
    return [`${table}: the app's row ${app ? 'is' : 'is not'} there, the twin's ${twin ? 'is' : 'is not'}`];
  const differences: string[] = [];
  for (const column of Object.keys(app)) {
    if (skip.includes(column)) continue;
    if (JSON.stringify(app[column]) !== JSON.stringify(twin[column]))
      differences.push(
        `${table}.${column}: app wrote ${JSON.stringify(app[column])}, twin ${JSON.stringify(twin[column])}`,
      );
  }
  return differences;
}

async function writtenPosts({ pool, app, twin }: WrittenContext): Promise<string[]> {
  const ids = [uuidsIn(app.body, 'post')[0], uuidsIn(twin.body, 'post')[0]] as [string, string];
  const differences = await sameRows(pool, 'posts', ids, [
    'id',
    'published_at',
    'updated_at',
    'card_text_at',
  ]);
  const { rows } = await pool.query<{ id: string; same: boolean }>(
    'SELECT id, published_at = updated_at AND card_text_at = updated_at AS same FROM posts WHERE id = ANY($1::uuid[])',
    [ids],
  );
  for (const row of rows)
    if (!row.same) differences.push(`posts ${row.id}: published_at, updated_at, card_text_at differ`);
  return differences;
}

/** The posts as above (but their chain columns), and each one's chain as the relay holds it. */
async function writtenChainedPosts(context: WrittenContext): Promise<string[]> {
  const ids = [uuidsIn(context.app.body, 'post')[0], uuidsIn(context.twin.body, 'post')[0]] as [
    string,
    string,
  ];
  const differences = await sameRows(context.pool, 'posts', ids, [
    'id',
    'published_at',
    'updated_at',
    'card_text_at',
    'content_id',
    'head_cid',
    'document_cid',
  ]);
  const chains = await Promise.all(ids.map((id) => chainOf(context.pool, id)));
  chains.forEach((chain, i) => {
    if (!(chain as { creator_did?: string } | null)?.creator_did)
      differences.push(`the ${i === 0 ? 'app' : 'twin'}'s post has no content chain in the relay`);
  });
  if (JSON.stringify(chains[0]) !== JSON.stringify(chains[1]))
    differences.push(`content chains: app ${JSON.stringify(chains[0])}, twin ${JSON.stringify(chains[1])}`);
  return differences;
}

/** What the relay holds for a post's chain, without what depends on the write's time. */
async function chainOf(pool: Pool, postId: string): Promise<unknown> {
  const { rows } = await pool.query(
    `SELECT c.creator_did, c.genesis_cid = c.head_cid AS genesis_is_head, c.op_count, c.is_deleted,
            c.current_document_cid = p.document_cid AS document_is_current, c.state - 'contentId' - 'genesisCid'
              - 'headCid' - 'currentDocumentCID' AS state,
            o.kind, o.op_type, o.signer_did, o.previous_cid, o.created_at = c.genesis_at AS op_at_genesis,
            d.document - 'publishedAt' AS document, d.document->>'publishedAt' = to_char(p.published_at AT TIME ZONE 'UTC',
              'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS document_published_at_is_post
     FROM posts p
     LEFT JOIN relay_content_chains c ON c.content_id = p.content_id AND c.head_cid = p.head_cid
     LEFT JOIN relay_operations o ON o.cid = c.head_cid
     LEFT JOIN relay_documents d ON d.content_id = c.content_id AND d.document_cid = c.current_document_cid
     WHERE p.id = $1`,
    [postId],
  );
  return rows[0] ?? null;
}

async function writtenComments({ pool, app, twin }: WrittenContext): Promise<string[]> {
  const ids = [uuidsIn(app.body, 'comment')[0], uuidsIn(twin.body, 'comment')[0]] as [string, string];
  return sameRows(pool, 'comments', ids, ['id', 'published_at', 'activity_at', 'updated_at']);
}

export const writeScenarios: Scenario[] = [
  {
    name: 'post create in the members topic',
    group: 'write',
    request: (context) => ({
      method: 'POST',
      path: `/v1/spaces/${BIG_SPACE_DOMAIN}/posts`,
      headers: { 'content-type': 'application/json' },
      body: postBody(MEMBERS_TOPIC),
      proof: writerProof(context),
    }),
    against: { kind: 'twin', handler: 'post create' },
    compare: { volatile: [VOLATILE.postId, VOLATILE.isoTime], written: writtenPosts },
    target: { ratio: 0.5 },
  },
  {
    name: 'post create in a public topic (content chain)',
    group: 'write',
    request: (context) => ({
      method: 'POST',
      path: `/v1/spaces/${BIG_SPACE_DOMAIN}/posts`,
      headers: { 'content-type': 'application/json' },
      body: postBody(PUBLIC_TOPICS[0]),
      proof: writerProof(context),
    }),
    against: { kind: 'twin', handler: 'post create' },
    compare: { volatile: [VOLATILE.postId, VOLATILE.isoTime, VOLATILE.chain], written: writtenChainedPosts },
    target: { ratio: 0.5 },
  },
  {
    name: 'comment create',
    group: 'write',
    request: (context) => ({
      method: 'POST',
      path: `/v1/spaces/${BIG_SPACE_DOMAIN}/posts/{post}/comments`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'A benchmark comment: short, as most are.' }),
      proof: writerProof(context),
      rotate: { space: BIG_SPACE, start: 0, count: liveCount(context.plan.bigSpacePosts) },
    }),
    against: { kind: 'twin', handler: 'comment create' },
    compare: { volatile: [VOLATILE.commentId, VOLATILE.isoTime], written: writtenComments },
  },
  {
    name: 'post upvote',
    group: 'write',
    request: (context) => ({
      method: 'PUT',
      path: `/v1/spaces/${BIG_SPACE_DOMAIN}/posts/{post}/upvote`,
      proof: writerProof(context),
      rotate: { space: BIG_SPACE, start: 0, count: liveCount(context.plan.bigSpacePosts) },
    }),
    against: { kind: 'twin', handler: 'post upvote' },
    // Another post for the twin (the same actor upvoting the same post twice would be a repeat).
    compare: { twinTakesNextRequest: true },
  },
];
