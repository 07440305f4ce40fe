import { DataSource } from 'typeorm';
import { PostCardText1795800000000 } from '../../../db/migrations/1795800000000-PostCardText';
import { ContentNotifications1796400000000 } from '../../../db/migrations/1796400000000-ContentNotifications';
import { parseEntityId } from '../../../src/common/ids/entity-id';
import { displayTitleOf, excerptOf, FOLD_MARKER } from '../../../src/posts/domain/post-text';
import { Actor } from '../../support/actors';
import {
  admit,
  bootSpaces,
  expectStatus,
  Listing,
  makePublic,
  newPost,
  newSpace,
  newTopic,
  person,
  SpacesTestApp,
} from './support';

interface Card {
  id: string;
  title: string | null;
  displayTitle: string | null;
  excerpt: string | null;
}

/** Bodies of at most 100,000 characters whose card text exercises every text rule. */
function bigBodies(): { title?: string; body: string }[] {
  const fill = (unit: string) => unit.repeat(Math.floor(99_000 / unit.length));
  return [
    { body: fill('lorem ipsum dolor sit amet, ') },
    {
      title: 'A titled long post',
      body: fill('# heading\n\n*emphasis* and `code` [link](https://x.example) '),
    },
    { body: fill('😀 e\u0301 🇫🇷 👨‍👩‍👧‍👦 ') },
    { body: `${'short above the fold '.repeat(3)}${FOLD_MARKER}${fill('below ')}` },
    { body: `${FOLD_MARKER}${fill('only below ')}` },
    { body: fill('x') },
    { body: 'a short one' },
  ];
}

const expected = (post: { title?: string; body: string }) => ({
  displayTitle: displayTitleOf(post.title ?? null, post.body),
  excerpt: excerptOf(post.body),
});

/** SQL statements the service sends while `run` runs. */
async function queriesDuring(dataSource: DataSource, run: () => Promise<unknown>): Promise<string[]> {
  const queries: string[] = [];
  const recorder = { beforeQuery: (event: { query: string }) => void queries.push(event.query) };
  dataSource.subscribers.push(recorder);
  try {
    await run();
  } finally {
    dataSource.subscribers.splice(dataSource.subscribers.indexOf(recorder), 1);
  }
  return queries;
}

describe('card text is kept with the post (0057-card-text-is-kept-with-the-post)', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let member: Actor;
  let space: { id: string; did: string };
  let topic: string;
  const posts: { id: string; title?: string; body: string }[] = [];
  const path = () => `/v1/spaces/${space.id}/posts`;

  beforeAll(async () => {
    t = await bootSpaces();
    [owner, member] = await Promise.all([person(t), person(t)]);
    space = await newSpace(owner, 'Cards');
    await makePublic(owner, space.id);
    await admit(owner, space.id, member);
    topic = await newTopic(owner, space.id, 'Long reads', 'public');
    for (const post of bigBodies()) {
      t.clock.offsetMs += 1000;
      const created = await newPost(member, space.id, { topic, ...post });
      posts.unshift({ id: created.id, ...post });
    }
  });

  afterAll(() => t?.close());

  const cardsOf = (listing: Listing<Card>) =>
    listing.items.map(({ id, displayTitle, excerpt }) => ({ id, displayTitle, excerpt }));
  const expectedCards = () => posts.map((post) => ({ id: post.id, ...expected(post) }));

  it('a listing of 100 KB bodies answers the card text the text rules compute', async () => {
    const anonymous = await t.anonymous.get(path());
    expectStatus(anonymous, 200);
    expect(cardsOf(anonymous.body as Listing<Card>)).toEqual(expectedCards());
    const asMember = await member.get(path());
    expect(cardsOf(asMember.body as Listing<Card>)).toEqual(expectedCards());
    const feed = await member.get('/v1/feed');
    expectStatus(feed, 200);
    expect(cardsOf(feed.body as Listing<Card>)).toEqual(expectedCards());
  });

  it('the full post answers the same card text', async () => {
    for (const post of posts) {
      const response = await t.anonymous.get(`${path()}/${post.id}`);
      expectStatus(response, 200);
      const full = response.body as { post: Card };
      expect({ displayTitle: full.post.displayTitle, excerpt: full.post.excerpt }).toEqual(expected(post));
    }
  });

  it('listings and the feed never read a body the stored card text covers', async () => {
    const queries = await queriesDuring(t.dataSource, async () => {
      expectStatus(await t.anonymous.get(`${path()}?limit=100`), 200);
      expectStatus(await member.get('/v1/feed'), 200);
    });
    const listings = queries.filter((query) => /FROM "posts" "post"/.test(query) && /LIMIT/.test(query));
    expect(listings).toHaveLength(2);
    for (const query of listings) {
      expect(query).not.toMatch(/"post"\."body" AS/);
      expect(query).toContain('"post"."excerpt"');
    }
    const stale = await t.dataSource.query(
      'SELECT count(*)::int AS n FROM posts WHERE card_text_at IS DISTINCT FROM updated_at',
    );
    expect(stale[0].n).toBe(0);
  });

  it('PATCH recomputes the card text', async () => {
    const post = posts[1];
    t.clock.offsetMs += 1000;
    const changed = { title: 'Now titled', body: `${'new words '.repeat(50)}` };
    expectStatus(await member.patch(`${path()}/${post.id}`, changed), 200);
    Object.assign(post, changed);
    const listing = await t.anonymous.get(path());
    expect(cardsOf(listing.body as Listing<Card>)).toEqual(expectedCards());
  });

  it('a row written without card text (by an older release) still lists its card text', async () => {
    const post = posts[2];
    const body = `${'written by an older release '.repeat(20)}`;
    await t.dataSource.query(
      `UPDATE posts SET body = $2, title = NULL, updated_at = updated_at + interval '1 second' WHERE id = $1`,
      [parseEntityId('post', post.id), body],
    );
    Object.assign(post, { title: undefined, body });
    const listing = await t.anonymous.get(path());
    expect(cardsOf(listing.body as Listing<Card>)).toEqual(expectedCards());
  });

  it('the migration backfills the card text of existing rows with the text rules', async () => {
    const migration = new PostCardText1795800000000();
    // A later migration's view (live_posts) reads display_title: it goes first and comes back last.
    const dependent = new ContentNotifications1796400000000();
    const runner = t.dataSource.createQueryRunner();
    try {
      await dependent.down(runner);
      await migration.down(runner);
      await migration.up(runner);
      await dependent.up(runner);
    } finally {
      await runner.release();
    }
    const rows: { id: string; excerpt: string | null; display_title: string | null; current: boolean }[] =
      await t.dataSource.query(
        `SELECT id, excerpt, display_title, card_text_at = updated_at AS current FROM posts WHERE space_id = $1`,
        [parseEntityId('space', space.id)],
      );
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const post of posts) {
      const row = byId.get(parseEntityId('post', post.id)!)!;
      expect({ displayTitle: row.display_title, excerpt: row.excerpt, current: row.current }).toEqual({
        ...expected(post),
        current: true,
      });
    }
    const listing = await t.anonymous.get(path());
    expect(cardsOf(listing.body as Listing<Card>)).toEqual(expectedCards());
  });
});
