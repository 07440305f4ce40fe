import { walkCursors, type PageEnvelope } from '../cursor-walk';
import { wirePostId } from '../request-plan';
import type { PlanContext, Scenario } from '../scenario-kit';
import {
  BIG_SPACE,
  BIG_SPACE_DOMAIN,
  benchTopicOf,
  isDeletedPost,
  LINK_CARD_POSTS,
  PUBLIC_TOPICS,
  SMALL_SPACE_DOMAIN,
  THREAD_POST,
} from '../seed-plan';
import { postTexts, TEXT_VARIANTS } from '../seed-texts';

/**
 * Posts, on the seeded database (bench/seed.ts): the listing of the 100k-post space (first page,
 * the page ~100 deep by its cursor, the member view with a request proof), the same first page
 * on the 500-post space (target: within 10% of it), one post, one post with ten resolved link
 * cards against the same post without links (target: within 10% of it), a post's comment thread,
 * the feed. Every page is `limit=100`. The member view, thread and feed are signed by the bench
 * reader (bench/actors.ts), a member of both bench spaces and 30 others.
 */

const PAGE = 100;
const BIG_LISTING = `/v1/spaces/${BIG_SPACE_DOMAIN}/posts?limit=${PAGE}`;
/** BENCH_POSTS_DEPTH: pages walked before the deep page (default 99: the deep page is page 100). */
const DEPTH = Number(process.env.BENCH_POSTS_DEPTH ?? 99);

/** The wire id of a seeded post's uuid. */
const wireUuid = (uuid: string) => `post_${uuid.replace(/-/g, '')}`;

const readerProof = (context: PlanContext) => ({
  actors: [context.actors.reader],
  perRequest: false,
  audience: context.audience,
});

/** The deepest page up to DEPTH + 1 the anonymous listing reaches (fewer pages on a small seed). */
async function deepPath(context: PlanContext): Promise<string> {
  const readable = Math.floor(context.plan.bigSpacePosts * (PUBLIC_TOPICS.length / 5) * 0.99);
  const depth = Math.max(1, Math.min(DEPTH, Math.floor(readable / PAGE) - 1));
  const walk = await walkCursors<{ id: string }>(async (cursor) => {
    const response = await fetch(
      `${context.appUrl}${BIG_LISTING}${cursor === null ? '' : `&after=${encodeURIComponent(cursor)}`}`,
    );
    if (!response.ok) throw new Error(`walking the listing: ${response.status} ${await response.text()}`);
    return (await response.json()) as PageEnvelope<{ id: string }>;
  }, depth);
  context.log(`posts deep page: page ${depth + 1}, after ${walk.items} posts`);
  return `${BIG_LISTING}&after=${encodeURIComponent(walk.cursor)}`;
}

/** A long public post of the big space whose body has links (so the full post shows `links`). */
export function singlePostNumber(): number {
  const texts = postTexts();
  for (let n = 1; ; n++) {
    const text = texts[(n * 7) % TEXT_VARIANTS];
    if (PUBLIC_TOPICS.includes(benchTopicOf(n)) && !isDeletedPost(n) && text.rich && text.title) return n;
  }
}

export const postsScenarios: Scenario[] = [
  {
    name: 'posts first page (100k-post space)',
    group: 'read',
    request: () => ({ method: 'GET', path: BIG_LISTING }),
    against: { kind: 'twin', handler: 'posts listing' },
    // Target: at least half the twin, and within 10% of the same page on 500 posts.
    relativeTo: 'posts first page (500-post space)',
    target: { ratio: 0.5, relative: 0.9 },
  },
  {
    name: 'posts first page (500-post space)',
    group: 'read',
    request: () => ({ method: 'GET', path: `/v1/spaces/${SMALL_SPACE_DOMAIN}/posts?limit=${PAGE}` }),
    against: { kind: 'twin', handler: 'posts listing' },
    target: { ratio: 0.6 },
  },
  {
    name: 'posts deep page by cursor (100k-post space)',
    group: 'read',
    request: async (context) => ({ method: 'GET', path: await deepPath(context) }),
    against: { kind: 'twin', handler: 'posts listing' },
    // Page cost flat from page 1 to page 100.
    relativeTo: 'posts first page (100k-post space)',
    target: { ratio: 0.6, relative: 0.9 },
  },
  {
    name: 'posts member view with a request proof (100k-post space)',
    group: 'authenticated read',
    request: (context) => ({ method: 'GET', path: BIG_LISTING, proof: readerProof(context) }),
    against: { kind: 'twin', handler: 'posts listing' },
  },
  {
    name: 'posts member view with a credential (100k-post space)',
    group: 'authenticated read',
    // An app (actor 1) reading for the reader: its proof presents the reader's credential.
    request: (context) => ({
      method: 'GET',
      path: BIG_LISTING,
      proof: {
        actors: [context.actors.app],
        perRequest: false,
        audience: context.audience,
        credential: context.actors.credential,
      },
    }),
    against: { kind: 'twin', handler: 'posts listing' },
  },
  {
    name: 'single post',
    group: 'read',
    request: () => ({
      method: 'GET',
      path: `/v1/spaces/${BIG_SPACE_DOMAIN}/posts/${wirePostId(BIG_SPACE, singlePostNumber())}`,
    }),
    against: { kind: 'twin', handler: 'single post' },
    target: { ratio: 0.6 },
  },
  {
    name: 'single post without links',
    group: 'read',
    request: () => ({
      method: 'GET',
      path: `/v1/spaces/${BIG_SPACE_DOMAIN}/posts/${wireUuid(LINK_CARD_POSTS.none)}`,
    }),
    against: { kind: 'twin', handler: 'single post' },
    target: { ratio: 0.6 },
  },
  {
    // The same post with ten bare URLs whose previews are resolved: one batched lookup more.
    name: 'single post with 10 resolved links',
    group: 'read',
    request: () => ({
      method: 'GET',
      path: `/v1/spaces/${BIG_SPACE_DOMAIN}/posts/${wireUuid(LINK_CARD_POSTS.resolved)}`,
    }),
    against: { kind: 'twin', handler: 'single post' },
    relativeTo: 'single post without links',
    target: { ratio: 0.6, relative: 0.9 },
  },
  {
    name: 'comment thread with a request proof',
    group: 'authenticated read',
    request: (context) => ({
      method: 'GET',
      path: `/v1/spaces/${BIG_SPACE_DOMAIN}/posts/${wirePostId(BIG_SPACE, THREAD_POST)}/comments?limit=${PAGE}`,
      proof: readerProof(context),
    }),
    against: { kind: 'twin', handler: 'comment thread' },
  },
  {
    name: 'feed with a request proof',
    group: 'authenticated read',
    request: (context) => ({ method: 'GET', path: `/v1/feed?limit=${PAGE}`, proof: readerProof(context) }),
    against: { kind: 'twin', handler: 'feed' },
  },
];
