import type { Pool } from 'pg';
import { POST_CARDS_STATEMENTS } from '../../src/posts/repositories/post-cards.repository';
import { POST_READERS_STATEMENTS } from '../../src/posts/repositories/post-readers.repository';
import { highlightIn, parseSearchQuery } from '../../src/search/domain/search-query';
import { readHitTiers, type HitRow } from '../../src/search/search.repository';
import { SPACES_STATEMENTS } from '../../src/spaces/repositories/spaces.repository';
import { verifyBareProof } from './auth';
import { TwinRefusal, type TwinContext, type TwinHandler } from './context';
import { card, cardRowOf, pageLimit, pathPart, readView, type AliasedCardRow } from './posts';
import { authorsOf, readable, topicsOf, type SpaceRow } from './rows';

/**
 * Search as the bare twin serves it (src/search): the space search of an anonymous reader and the
 * search across a member's spaces, first pages only, posts only (the seeded texts name the searched
 * words in posts alone: a hit of another kind is a refusal). Same statements as the app: the read
 * view and topics (the space) or the member's spaces and readable topics (across), the search
 * statements (one per recency tier read, SearchRepository's `readHitTiers`), then the hits' cards (PostCardsService.cardsFor) and their authors.
 */

interface MemberSpaceRow extends SpaceRow {
  membership_role: string;
}

/** SearchRepository.search's first page, then SearchPresenter's cards of its post hits. */
async function searchPage(
  context: TwinContext,
  scope: { posts: string[]; spaces: string[]; comments: string[]; publicSpaces: string[] },
  reader: string | null,
): Promise<string> {
  const q = context.url.searchParams.get('q') ?? '';
  const query = parseSearchQuery(q);
  if (context.url.searchParams.has('after') || context.url.searchParams.has('types'))
    throw new TwinRefusal(500, 'the twin serves first pages of every kind only');
  const limit = pageLimit(context.url);
  const fetched = await readHitTiers(
    async (sql, parameters) => (await context.pool.query<HitRow>(sql, parameters)).rows,
    [
      query.text,
      query.prefix,
      query.alternative,
      scope.posts,
      scope.comments,
      scope.publicSpaces,
      scope.publicSpaces,
      new Date(),
      limit + 1,
      scope.spaces,
      query.headRequired,
      scope.posts,
    ],
    { values: null, backward: false, take: limit + 1 },
  );
  const hits = fetched.slice(0, limit);
  if (hits.some((hit) => hit.type !== 'post')) throw new TwinRefusal(500, 'the twin shows posts only');
  const cards = await cardsFor(
    context.pool,
    reader,
    hits.map((hit) => hit.id),
    context.webDomain,
  );
  const last = hits[hits.length - 1];
  return JSON.stringify({
    items: hits.flatMap((hit) => {
      const item = cards.get(hit.id);
      return item ? [{ type: hit.type, item, highlight: highlightIn(hit.document, query) }] : [];
    }),
    nextCursor:
      fetched.length > limit ? context.cursors.encode('search', [Number(last.score), last.id]) : null,
    previousCursor: null,
  });
}

/** PostCardsService.cardsFor: the cards of the posts the reader reads, by uuid, then their authors. */
async function cardsFor(
  pool: Pool,
  reader: string | null,
  ids: string[],
  webDomain: string,
): Promise<Map<string, Record<string, unknown>>> {
  if (ids.length === 0) return new Map();
  const { rows } = await pool.query<
    AliasedCardRow & { space_domain: string; member: boolean; upvoted: boolean }
  >(POST_CARDS_STATEMENTS.forReader, [ids, reader]);
  const authors = await authorsOf(
    pool,
    rows.map((row) => row.post_author_did),
  );
  return new Map(
    rows.map((row) => {
      const post = cardRowOf(row);
      const upvoted = row.member ? row.upvoted : null;
      return [
        post.id,
        card(post, { domain: row.space_domain }, authors.get(post.author_did) ?? null, upvoted, webDomain),
      ];
    }),
  );
}

/** GET /v1/spaces/{space}/search?q=… of an anonymous reader. */
export const spaceSearch: TwinHandler = async (context) => {
  const { space, viewer } = await readView(context, pathPart(context.url, 3));
  if (viewer) throw new TwinRefusal(500, 'the twin searches as an anonymous reader only');
  const topics = await topicsOf(context.pool, [space.id], ['public']);
  const topicIds = topics
    .filter((topic) => readable('anonymous', topic.access_kind))
    .map((topic) => topic.id);
  const json = await searchPage(
    context,
    { posts: topicIds, spaces: [space.id], comments: [], publicSpaces: space.is_public ? [space.id] : [] },
    null,
  );
  return { status: 200, json };
};

/** GET /v1/search?q=… of a member (bare proof): their spaces, the topics they read there. */
export const searchAcrossSpaces: TwinHandler = async (context) => {
  const proof = await verifyBareProof(context.pool, context.request);
  const { rows: spaces } = await context.pool.query<MemberSpaceRow>(SPACES_STATEMENTS.memberSpaces.all, [
    proof.did,
  ]);
  if (spaces.length === 0) throw new TwinRefusal(500, 'the twin searches no empty membership');
  const { rows: topics } = await context.pool.query<{ id: string }>(POST_READERS_STATEMENTS.readableTopics, [
    spaces.map((space) => space.id),
    proof.did,
  ]);
  const topicIds = topics.map((topic) => topic.id);
  const json = await searchPage(
    context,
    {
      posts: topicIds,
      spaces: spaces.map((space) => space.id),
      comments: topicIds,
      publicSpaces: spaces.filter((space) => space.is_public).map((space) => space.id),
    },
    proof.did,
  );
  return { status: 200, json };
};
