import { createHash } from 'node:crypto';

/**
 * What the bench database holds, and the names of its rows. Every id and DID of the seed is a
 * function of a number (md5 of a label, read as a uuid or mapped onto the DID alphabet), computed
 * the same way in SQL (bench/seed.ts) and here, so the harness finds the rows it needs without
 * asking the database.
 */
export interface SeedPlan {
  /** Posts in all (default 1,000,000; BENCH_SEED_POSTS). */
  posts: number;
  /** Posts of the big space (100,000, at most half of `posts`). */
  bigSpacePosts: number;
  /** Posts of the small space, for "a listing on 100k posts costs what it costs on 500". */
  smallSpacePosts: number;
  /** Spaces besides the two bench spaces (the directory's and the rest of the posts'). */
  spaces: number;
  users: number;
  /** Root comments of the thread scenario's post (each root r has r % 4 replies). */
  threadRoots: number;
}

export const BIG_SPACE = 0;
export const SMALL_SPACE = 1;
/** The spaces numbered 0 and 1 are the bench's; the directory's are 2 .. spaces + 1. */
export const FIRST_OTHER_SPACE = 2;
export const BIG_SPACE_DOMAIN = 'bench-big';
export const SMALL_SPACE_DOMAIN = 'bench-small';

/** Topics of every space, in order: three public, one for members, one for signed-in people. */
export const TOPICS = [
  { name: 'General', accessKind: 'public' },
  { name: 'News', accessKind: 'public' },
  { name: 'Links', accessKind: 'public' },
  { name: 'Members lounge', accessKind: 'members' },
  { name: 'Signed-in corner', accessKind: 'signedIn' },
] as const;
export const PUBLIC_TOPICS = [0, 1, 2];
export const MEMBERS_TOPIC = 3;

/** Products of the small space's store: a full 100-card page and a next one. */
export const STORE_PRODUCTS = 120;
/** The purchase page's product (published, live, listed in the release) and the release. */
export const STORE_PURCHASED_SLUG = 'bench-product-0';
export const STORE_RELEASE_SLUG = 'bench-release';

/** Events of the small space, a weekly and a daily series among them. */
export const EVENTS_PER_SPACE = 150;
/** Public events over the directory's spaces (a third weekly), for `/v1/events/upcoming`. */
export const OTHER_EVENTS = 20_000;

/** Every post numbered n % 100 == 99 (and n > 0) is soft-deleted, as a live database has some. */
export const DELETED_PER_100 = 1;

export function seedPlan(env: NodeJS.ProcessEnv = process.env): SeedPlan {
  const posts = positiveInteger(env, 'BENCH_SEED_POSTS', 1_000_000);
  const smallSpacePosts = 500;
  if (posts < 2_000) throw new Error(`BENCH_SEED_POSTS must be at least 2000, got ${posts}`);
  return {
    posts,
    bigSpacePosts: Math.min(100_000, Math.floor(posts / 2)),
    smallSpacePosts,
    spaces: positiveInteger(env, 'BENCH_SEED_SPACES', 10_000),
    users: 10_000,
    threadRoots: 150,
  };
}

/** What PostgreSQL's `md5(label)::uuid` gives. */
export function md5Uuid(label: string): string {
  const h = createHash('md5').update(label).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const HEX = '0123456789abcdef';
/** 16 letters of the DID alphabet (design.md: 2346789acdefhknrtvz), one per hex digit. */
const DID_LETTERS = '2346789acdefhknr';

/** What the SQL's `'did:plat:' || left(translate(md5(label), HEX, DID_LETTERS), 31)` gives. */
export function md5Did(label: string): string {
  const h = createHash('md5').update(label).digest('hex');
  let id = '';
  for (const c of h.slice(0, 31)) id += DID_LETTERS[HEX.indexOf(c)];
  return `did:plat:${id}`;
}

/** SQL of `md5Did`, over a text expression. */
export const sqlDid = (label: string) =>
  `'did:plat:' || left(translate(md5(${label}), '${HEX}', '${DID_LETTERS}'), 31)`;

export const spaceId = (n: number) => md5Uuid(`space-${n}`);
export const topicId = (space: number, k: number) => md5Uuid(`topic-${space}-${k}`);
export const userId = (n: number) => md5Uuid(`user-${n}`);
export const userDid = (n: number) => md5Did(`user-did-${n}`);
/** Post `n` of space `space` (for the other spaces, n runs over all their posts). */
export const postId = (space: number, n: number) => md5Uuid(`post-${space}-${n}`);

/**
 * The link-card scenarios' posts (bench/suites/posts.ts): one title, one body listing ten bare URLs
 * whose previews are resolved (no image: no media lookup), one listing ten lines without a link.
 * Both in public topic 0 of the big space, older than its other posts (no listing reaches them).
 */
export const LINK_CARD_URLS = Array.from({ length: 10 }, (_, i) => `https://example.com/reading/${i + 1}`);
export const LINK_CARD_POSTS = {
  resolved: md5Uuid('post-links-resolved'),
  none: md5Uuid('post-links-none'),
} as const;
export const LINK_CARD_TITLE = 'Reading list';
export const linkCardBody = (withLinks: boolean): string =>
  `What we read this week:\n\n${LINK_CARD_URLS.map((url, i) => `- ${withLinks ? url : `item ${i + 1}`}`).join('\n')}`;

/** The post the thread scenario reads: the big space's newest (public topic 0). */
export const THREAD_POST = 0;

/** Topic of post n of a bench space. */
export const benchTopicOf = (n: number) => n % TOPICS.length;
export const isDeletedPost = (n: number) => n > 0 && n % 100 >= 100 - DELETED_PER_100;

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}
