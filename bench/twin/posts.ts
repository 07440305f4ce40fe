import type { Pool } from 'pg';
import { applyFold, bareUrlsOf, displayTitleOf, excerptOf } from '../../src/posts/domain/post-text';
import { RecentLinkPreviews } from '../../src/link-previews/domain/recent-link-previews';
import { LINK_PREVIEWS_STATEMENTS } from '../../src/link-previews/link-previews.repository';
import { POST_CARDS_STATEMENTS } from '../../src/posts/repositories/post-cards.repository';
import { POST_COUNTS_STATEMENTS } from '../../src/posts/repositories/post-counts.repository';
import { POST_READERS_STATEMENTS } from '../../src/posts/repositories/post-readers.repository';
import { SPACES_STATEMENTS } from '../../src/spaces/repositories/spaces.repository';
import { verifyBareProof, verifyTwinCredential } from './auth';
import { answer, TwinRefusal, uuidOf, wireId, type TwinContext, type TwinHandler } from './context';
import type { KeysetValue } from './cursors';
import {
  authorsOf,
  membershipOf,
  LIVE_POST_IN_SPACE,
  postsUpvotedBy,
  readable,
  spaceByDomain,
  topicInSpace,
  topicsOf,
  wordedSummary,
  type AuthorRecord,
  type SpaceRow,
} from './rows';

/**
 * Posts as the bare twin serves them: the listing of a space (anonymous public projection, or the
 * member view of a proof-signing member), the single post (anonymous), the feed. Same statements
 * as the app (space, membership, topics, the page and the counter sum in parallel, authors and
 * the viewer's upvotes in parallel), same bytes (card text from the stored columns; the body only
 * of a row whose stored text is stale, as the app does).
 */

export interface CardRow {
  id: string;
  space_id: string;
  topic_id: string;
  author_did: string;
  title: string | null;
  excerpt: string | null;
  display_title: string | null;
  card_text_at: Date | null;
  slug: string;
  upvote_count: number;
  comment_count: number;
  published_at: Date;
  updated_at: Date;
  content_id: string | null;
  head_cid: string | null;
  stale_body: string | null;
}

interface FullRow extends CardRow {
  body: string;
}

interface PreviewRow {
  url: string;
  title: string | null;
  description: string | null;
  site_name: string | null;
  image_media_id: string | null;
  favicon_media_id: string | null;
  expires_at: Date;
}

export function canonicalUri(webDomain: string, domain: string, post: { slug: string; id: string }): string {
  return `https://${domain}.${webDomain}/post/${post.slug}-${wireId('post', post.id)}`;
}

/** PostPresenter.card. */
export function card(
  row: CardRow,
  space: Pick<SpaceRow, 'domain'>,
  author: AuthorRecord | null,
  upvoted: boolean | null,
  webDomain: string,
): Record<string, unknown> {
  const current = row.card_text_at !== null && row.card_text_at.getTime() === row.updated_at.getTime();
  const body = row.stale_body ?? '';
  return {
    id: wireId('post', row.id),
    slug: row.slug,
    format: row.title ? 'long-post' : 'short-post',
    title: row.title,
    excerpt: current ? row.excerpt : excerptOf(body),
    displayTitle: current ? row.display_title : displayTitleOf(row.title, body),
    author,
    upvoteCount: Math.max(0, row.upvote_count),
    commentCount: Math.max(0, row.comment_count),
    isPinned: false,
    publishedAt: row.published_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    canonicalUri: canonicalUri(webDomain, space.domain, row),
    ...(row.content_id && row.head_cid
      ? { protocol: { contentId: row.content_id, headOpCid: row.head_cid } }
      : {}),
    ...(upvoted === null ? {} : { viewer: { upvoted } }),
  };
}

/** Cards of a page: authors and (member view) the viewer's upvotes in parallel. */
async function cards(
  pool: Pool,
  rows: CardRow[],
  spaceOf: (row: CardRow) => Pick<SpaceRow, 'domain'>,
  viewer: string | null,
  webDomain: string,
): Promise<Record<string, unknown>[]> {
  const [authors, upvoted] = await Promise.all([
    authorsOf(
      pool,
      rows.map((row) => row.author_did),
    ),
    viewer
      ? postsUpvotedBy(
          pool,
          viewer,
          rows.map((row) => row.id),
        )
      : Promise.resolve(null),
  ]);
  return rows.map((row) =>
    card(
      row,
      spaceOf(row),
      authors.get(row.author_did) ?? null,
      upvoted ? upvoted.has(row.id) : null,
      webDomain,
    ),
  );
}

/**
 * PostCardsRepository's space page newest first, without filters, forward only: the statement and
 * parameters the app sends for a space's listing page.
 */
export function spacePostsPage(
  spaceId: string,
  topicIds: string[],
  after: KeysetValue[] | null,
  take: number,
): { sql: string; parameters: unknown[] } {
  const { spacePage } = POST_CARDS_STATEMENTS;
  return {
    sql: after ? spacePage.newestAfter : spacePage.newestFirst,
    parameters: [spaceId, topicIds, null, null, null, take, ...(after ?? [])],
  };
}

export type AliasedCardRow = {
  [Column in keyof CardRow as Column extends 'stale_body' ? Column : `post_${Column}`]: CardRow[Column];
};

/** A listing row by the app's aliases as a card row (the app maps its rows one by one too: cardOfRow). */
export const cardRowOf = (row: AliasedCardRow): CardRow => ({
  id: row.post_id,
  space_id: row.post_space_id,
  topic_id: row.post_topic_id,
  author_did: row.post_author_did,
  title: row.post_title,
  excerpt: row.post_excerpt,
  display_title: row.post_display_title,
  card_text_at: row.post_card_text_at,
  slug: row.post_slug,
  upvote_count: row.post_upvote_count,
  comment_count: row.post_comment_count,
  published_at: row.post_published_at,
  updated_at: row.post_updated_at,
  content_id: row.post_content_id,
  head_cid: row.post_head_cid,
  stale_body: row.stale_body,
});

/** A space's listing page, newest first (PostsService.list with openKeysetPage and closeKeysetPage). */
async function spaceListingPage(context: TwinContext, spaceId: string, topicIds: string[]): Promise<Page> {
  const listing = 'space-posts:DESC';
  const limit = pageLimit(context.url);
  const cursor = context.url.searchParams.get('after');
  const after = cursor === null ? null : context.cursors.decode(listing, cursor);
  if (cursor !== null && (!after || after.length !== 2)) throw new TwinRefusal(400, 'Invalid cursor');
  const { sql, parameters } = spacePostsPage(spaceId, topicIds, after, limit + 1);
  const { rows } = await context.pool.query<AliasedCardRow>(sql, parameters);
  const page = rows.slice(0, limit).map(cardRowOf);
  const encode = (row: CardRow | undefined) =>
    row ? context.cursors.encode(listing, [row.published_at.toISOString(), row.id]) : null;
  return {
    rows: page,
    nextCursor: rows.length > limit ? encode(page[page.length - 1]) : null,
    previousCursor: after ? encode(page[0]) : null,
  };
}

interface Page {
  rows: CardRow[];
  nextCursor: string | null;
  previousCursor: string | null;
}

/** A feed page newest first (FeedService with openKeysetPage and closeKeysetPage), forward only. */
async function feedPage(context: TwinContext, topicIds: string[]): Promise<Page> {
  const limit = pageLimit(context.url);
  const cursor = context.url.searchParams.get('after');
  const after = cursor === null ? null : context.cursors.decode('feed', cursor);
  if (cursor !== null && (!after || after.length !== 2)) throw new TwinRefusal(400, 'Invalid cursor');
  const { feedPage: statements } = POST_CARDS_STATEMENTS;
  const { rows } = await context.pool.query<AliasedCardRow>(after ? statements.after : statements.first, [
    topicIds,
    limit + 1,
    ...(after ?? []),
  ]);
  const page = rows.slice(0, limit).map(cardRowOf);
  const encode = (row: CardRow | undefined) =>
    row ? context.cursors.encode('feed', [row.published_at.toISOString(), row.id]) : null;
  return {
    rows: page,
    nextCursor: rows.length > limit ? encode(page[page.length - 1]) : null,
    previousCursor: after ? encode(page[0]) : null,
  };
}

export function pageLimit(url: URL): number {
  const raw = url.searchParams.get('limit');
  return raw === null ? 20 : Number(raw);
}

/** The space of the path (`/v1/spaces/{domain}/…`) as the caller reads it. */
export async function readView(
  context: TwinContext,
  domain: string,
): Promise<{ space: SpaceRow; viewer: string | null }> {
  const proof = context.request.headers.authorization
    ? await verifyBareProof(context.pool, context.request)
    : null;
  const token = context.request.headers['x-credential'];
  const credential =
    proof && typeof token === 'string' ? await verifyTwinCredential(context.pool, token, proof.did) : null;
  const space = await spaceByDomain(context.pool, domain);
  if (!space) throw new TwinRefusal(404, 'no such space');
  // With a credential the person acting is its issuer, when it covers this space.
  const acting = credential
    ? credential.covers(space.did, 'read:posts')
      ? credential.acting
      : null
    : (proof?.did ?? null);
  if (acting) {
    const membership = await membershipOf(context.pool, space.id, acting);
    if (membership?.status === 'active') return { space, viewer: acting };
  }
  if (!space.is_public) throw new TwinRefusal(404, 'hidden space');
  if (proof) throw new TwinRefusal(500, 'the twin serves no visitor view');
  return { space, viewer: null };
}

export function pathPart(url: URL, index: number): string {
  return decodeURIComponent(url.pathname.split('/')[index] ?? '');
}

/** GET /v1/spaces/{space}/posts?limit=… (newest first, no filters). */
export const postsListing: TwinHandler = async (context) => {
  const { space, viewer } = await readView(context, pathPart(context.url, 3));
  const topics = await topicsOf(context.pool, [space.id], viewer ? undefined : ['public']);
  const topicIds = topics
    .filter((t) => readable(viewer ? 'member' : 'anonymous', t.access_kind))
    .map((t) => t.id);
  if (topicIds.length === 0) throw new TwinRefusal(500, 'the twin lists no space without readable topics');
  const [page, total] = await Promise.all([
    spaceListingPage(context, space.id, topicIds),
    context.pool.query<{ n: number }>(POST_COUNTS_STATEMENTS.inTopics.all, [topicIds]),
  ]);
  const items = await cards(context.pool, page.rows, () => space, viewer, context.webDomain);
  return answer({
    items,
    nextCursor: page.nextCursor,
    previousCursor: page.previousCursor,
    totalCount: total.rows[0].n,
  });
};

/** The app's memory of resolved previews, kept as long (LINK_PREVIEW_CACHE_SECONDS, default 60). */
const recentPreviews = new RecentLinkPreviews(Number(process.env.LINK_PREVIEW_CACHE_SECONDS ?? 60) * 1000);

/** GET /v1/spaces/{space}/posts/{postId}, anonymous: the eligible full post with the call to action. */
export const singlePost: TwinHandler = async (context) => {
  const { space, viewer } = await readView(context, pathPart(context.url, 3));
  if (viewer) throw new TwinRefusal(500, 'the twin serves the anonymous single post only');
  const id = uuidOf('post', pathPart(context.url, 5));
  const { rows } = id ? await context.pool.query<FullRow>(LIVE_POST_IN_SPACE, [id, space.id]) : { rows: [] };
  const post = rows[0];
  if (!post) throw new TwinRefusal(404, 'no such post');
  const topic = await topicInSpace(context.pool, post.topic_id, space.id);
  if (!topic) throw new TwinRefusal(404, 'no such topic');
  const callToAction = {
    displayName: space.display_name,
    description: space.description,
    avatarUrl: null,
    domain: space.domain,
    joinMode: space.join_mode,
    subscribeEnabled: space.subscribe_enabled,
    memberCountSummary: wordedSummary(space.member_count, 'members'),
  };
  if (!readable('anonymous', topic.access_kind)) throw new TwinRefusal(500, 'the twin serves no gated post');
  const authors = await authorsOf(context.pool, [post.author_did]);
  const { body, folded } = applyFold(post.body);
  const urls = bareUrlsOf(body);
  // LinkPreviewsService.previewsOf: what this process read lately from memory (RecentLinkPreviews,
  // kept as long as the app's LINK_PREVIEW_CACHE_SECONDS), the other records of the normalized URLs
  // in one statement (the seeded previews have no image, so no media lookup); none without links.
  const now = Date.now();
  const keys = urls.map((url) => recentPreviews.keyOf(url));
  const views = new Map<
    string,
    { title: string | null; description: string | null; siteName: string | null }
  >();
  const missing = new Set<string>();
  for (const key of keys) {
    if (key === null) continue;
    const kept = recentPreviews.get(key, now);
    if (kept) views.set(key, kept);
    else missing.add(key);
  }
  if (missing.size > 0) {
    const { rows } = await context.pool.query<PreviewRow>(LINK_PREVIEWS_STATEMENTS.byUrls, [[...missing]]);
    for (const row of rows) {
      if (row.image_media_id || row.favicon_media_id)
        throw new TwinRefusal(500, 'the twin shows no preview images');
      if (row.expires_at.getTime() <= now) throw new TwinRefusal(500, 'the twin queues no resolution');
      const view = {
        title: row.title,
        description: row.description,
        siteName: row.site_name,
        imageUrl: null,
        faviconUrl: null,
      };
      views.set(row.url, view);
      recentPreviews.keep(row.url, view, row.expires_at.getTime(), now);
    }
  }
  const links = urls.map((url, sortOrder) => {
    const preview = views.get(keys[sortOrder] ?? '');
    return {
      url,
      title: preview?.title ?? null,
      description: preview?.description ?? null,
      siteName: preview?.siteName ?? null,
      sortOrder,
    };
  });
  // Internal links (entityLinks) resolve only URLs under SPACES_WEB_DOMAIN; the seeded bodies have none.
  if (body.toLowerCase().includes(`.${context.webDomain.toLowerCase()}`))
    throw new TwinRefusal(500, 'the twin resolves no internal links');
  return answer({
    state: 'eligible',
    post: {
      ...card(
        { ...post, stale_body: post.body },
        space,
        authors.get(post.author_did) ?? null,
        null,
        context.webDomain,
      ),
      body,
      attachments: [],
      bodyMedia: [],
      topics: [{ id: wireId('topic', topic.id), name: topic.name }],
      ...(folded ? { folded: true } : {}),
      ...(links.length > 0 ? { links } : {}),
    },
    space: callToAction,
  });
};

interface MemberSpaceRow extends SpaceRow {
  membership_role: string;
}

/**
 * GET /v1/feed: the member's spaces (SpacesRepository.memberSpaces), their topics, one page over
 * them, authors and upvotes.
 */
export const feed: TwinHandler = async (context) => {
  const proof = await verifyBareProof(context.pool, context.request);
  const { rows: spaces } = await context.pool.query<MemberSpaceRow>(SPACES_STATEMENTS.memberSpaces.all, [
    proof.did,
  ]);
  const bySpace = new Map(spaces.map((space) => [space.id, space]));
  if (spaces.length === 0) throw new TwinRefusal(500, 'the twin serves no empty feed');
  // PostReadabilityService.readableTopicIds: the topics the member reads, in one statement.
  const { rows: topics } = await context.pool.query<{ id: string }>(POST_READERS_STATEMENTS.readableTopics, [
    [...bySpace.keys()],
    proof.did,
  ]);
  const topicIds = topics.map((topic) => topic.id);
  if (topicIds.length === 0) throw new TwinRefusal(500, 'the twin serves no empty feed');
  const page = await feedPage(context, topicIds);
  const items = await cards(
    context.pool,
    page.rows,
    (row) => bySpace.get(row.space_id)!,
    proof.did,
    context.webDomain,
  );
  return answer({
    items: items.map((item, index) => {
      const space = bySpace.get(page.rows[index].space_id)!;
      return {
        ...item,
        space: {
          id: wireId('space', space.id),
          did: space.did,
          name: space.display_name ?? null,
          url: `https://${space.domain}.${context.webDomain}`,
        },
      };
    }),
    nextCursor: page.nextCursor,
    previousCursor: page.previousCursor,
  });
};
