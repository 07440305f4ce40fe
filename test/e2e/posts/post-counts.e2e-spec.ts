import { parseEntityId } from '../../../src/common/ids/entity-id';
import { Actor } from '../../support/actors';
import { refuseWrites } from '../../support/faults';
import {
  admit,
  bootSpaces,
  expectStatus,
  makePublic,
  newPost,
  newSpace,
  newTopic,
  person,
  SpacesTestApp,
} from './support';

/**
 * The posts listing's totalCount and the space's privatePostCountSummary come from per-topic
 * counters kept inside every post write's transaction (docs/decisions/0066-counts-without-scanning.md), never from counting the
 * posts per request. After every step the counters must equal a recount of the posts, and what the
 * API shows must follow: create, delete, a move between topics, a format change, a topic's access
 * change, a deleted topic, and writes that roll back.
 */
describe('post counters (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let member: Actor;
  let space: { id: string; did: string };
  let open: string;
  let closed: string;
  const posts = () => `/v1/spaces/${space.id}/posts`;

  /** The counters as stored, and a recount of the live posts they stand for. */
  const counters = async () => {
    const [kept, recounted] = await Promise.all([
      t.dataSource.query(
        `SELECT topic_id, short_posts AS short, long_posts AS long FROM post_topic_counts
         WHERE space_id = $1 AND (short_posts <> 0 OR long_posts <> 0) ORDER BY topic_id`,
        [parseEntityId('space', space.id)],
      ),
      t.dataSource.query(
        `SELECT topic_id, count(*) FILTER (WHERE title IS NULL)::int AS short,
                count(*) FILTER (WHERE title IS NOT NULL)::int AS long
         FROM posts WHERE space_id = $1 AND deleted_at IS NULL GROUP BY topic_id ORDER BY topic_id`,
        [parseEntityId('space', space.id)],
      ),
    ]);
    return { kept, recounted };
  };
  const expectCountersExact = async () => {
    const { kept, recounted } = await counters();
    expect(kept).toEqual(recounted);
  };
  const total = async (caller: Actor | null, query = '') => {
    const path = query ? `${posts()}?${query}` : posts();
    const response = caller ? await caller.get(path) : await t.anonymous.get(path);
    expectStatus(response, 200);
    return response.body.totalCount as number | undefined;
  };
  const privateSummary = async () => {
    const response = await t.anonymous.get(`/v1/spaces/${space.id}`);
    expectStatus(response, 200);
    return response.body.privatePostCountSummary as string;
  };
  /** What the API shows: public total, member total, the closed topic's, long posts, the summary. */
  const shown = async () => ({
    anonymous: await total(null),
    member: await total(member),
    closed: await total(member, `topic=${closed}`),
    long: await total(member, 'format=long-post'),
    summary: await privateSummary(),
  });

  beforeAll(async () => {
    t = await bootSpaces();
    [owner, member] = await Promise.all([person(t), person(t)]);
    space = await newSpace(owner, 'Counted');
    await makePublic(owner, space.id);
    await admit(owner, space.id, member);
    open = await newTopic(owner, space.id, 'Open', 'public');
    closed = await newTopic(owner, space.id, 'Closed', 'members');
  });

  afterAll(() => t?.close());

  it('starts at zero', async () => {
    expect(await shown()).toEqual({
      anonymous: 0,
      member: 0,
      closed: 0,
      long: 0,
      summary: 'no private posts',
    });
  });

  it('create counts each post in its topic and format', async () => {
    await newPost(member, space.id, { topic: open, body: 'one' });
    await newPost(member, space.id, { topic: open, body: 'two', title: 'Two' });
    await newPost(member, space.id, { topic: closed, body: 'three' });
    await expectCountersExact();
    expect(await shown()).toEqual({
      anonymous: 2,
      member: 3,
      closed: 1,
      long: 1,
      summary: 'a handful of private posts',
    });
  });

  it('delete takes a post out', async () => {
    const doomed = await newPost(member, space.id, { topic: closed, body: 'doomed', title: 'Doomed' });
    expect(await total(member)).toBe(4);
    expectStatus(await member.delete(`${posts()}/${doomed.id}`), 200);
    await expectCountersExact();
    expect(await shown()).toEqual({
      anonymous: 2,
      member: 3,
      closed: 1,
      long: 1,
      summary: 'a handful of private posts',
    });
  });

  it('a move between topics and a format change move the count', async () => {
    const moving = await newPost(member, space.id, { topic: closed, body: 'moving' });
    expect(await total(member, `topic=${closed}`)).toBe(2);
    expectStatus(await member.patch(`${posts()}/${moving.id}`, { topic: open }), 200);
    await expectCountersExact();
    expect(await shown()).toEqual({
      anonymous: 3,
      member: 4,
      closed: 1,
      long: 1,
      summary: 'a handful of private posts',
    });
    expectStatus(await member.patch(`${posts()}/${moving.id}`, { title: 'Now long', topic: closed }), 200);
    await expectCountersExact();
    expect(await shown()).toEqual({
      anonymous: 2,
      member: 4,
      closed: 2,
      long: 2,
      summary: 'a handful of private posts',
    });
    expectStatus(await member.patch(`${posts()}/${moving.id}`, { title: null }), 200);
    await expectCountersExact();
    expect(await total(member, 'format=long-post')).toBe(1);
    expect(await total(member, 'format=short-post')).toBe(3);
  });

  it("a topic's access change moves its posts between public and private without a recount", async () => {
    expectStatus(
      await owner.put(`/spaces/${space.id}/topics/${closed}`, { name: 'Closed', access: 'public' }),
      200,
    );
    expect(await shown()).toEqual({
      anonymous: 4,
      member: 4,
      closed: 2,
      long: 1,
      summary: 'no private posts',
    });
    expectStatus(
      await owner.put(`/spaces/${space.id}/topics/${closed}`, { name: 'Closed', access: 'members' }),
      200,
    );
    expect(await shown()).toEqual({
      anonymous: 2,
      member: 4,
      closed: 2,
      long: 1,
      summary: 'a handful of private posts',
    });
    await expectCountersExact();
  });

  it("a deleted topic's posts leave every total", async () => {
    const doomed = await newTopic(owner, space.id, 'Doomed', 'members');
    await newPost(member, space.id, { topic: doomed, body: 'in a doomed topic' });
    expect(await total(member)).toBe(5);
    expectStatus(await owner.delete(`/spaces/${space.id}/topics/${doomed}`), 204);
    expect(await shown()).toEqual({
      anonymous: 2,
      member: 4,
      closed: 2,
      long: 1,
      summary: 'a handful of private posts',
    });
  });

  it('a write that rolls back leaves the counters as they were', async () => {
    const before = await shown();
    const { id } = await newPost(member, space.id, { topic: closed, body: 'stays' });
    const after = await shown();
    const repairActivity = await refuseWrites(t.dataSource, 'spaces', 'UPDATE OF last_activity_at');
    try {
      // the counter is updated before the activity: the failure must undo it
      expectStatus(await member.post(posts(), { topic: closed, body: 'refused' }), 500);
      expectStatus(await member.patch(`${posts()}/${id}`, { topic: open }), 500);
    } finally {
      await repairActivity();
    }
    expect(await shown()).toEqual(after);
    const repairCounters = await refuseWrites(t.dataSource, 'post_topic_counts', 'UPDATE');
    try {
      // a counter that cannot be kept fails the write: nothing is stored, nothing deleted
      expectStatus(await member.post(posts(), { topic: closed, body: 'refused' }), 500);
      expectStatus(await member.delete(`${posts()}/${id}`), 500);
    } finally {
      await repairCounters();
    }
    expect(await shown()).toEqual(after);
    await expectCountersExact();
    expectStatus(await member.get(`${posts()}/${id}`), 200);
    expectStatus(await member.delete(`${posts()}/${id}`), 200);
    expect(await shown()).toEqual(before);
    await expectCountersExact();
  });

  it('concurrent creates and opposite moves all succeed and lose no count', async () => {
    const [here, there] = await Promise.all([
      Promise.all([1, 2, 3, 4].map((n) => newPost(member, space.id, { topic: open, body: `here ${n}` }))),
      Promise.all([1, 2, 3, 4].map((n) => newPost(owner, space.id, { topic: closed, body: `there ${n}` }))),
    ]);
    const answers = await Promise.all([
      ...here.map((post) => member.patch(`${posts()}/${post.id}`, { topic: closed })),
      ...there.map((post) => owner.patch(`${posts()}/${post.id}`, { topic: open })),
      ...[1, 2, 3, 4].map((n) => member.post(posts(), { topic: open, body: `more ${n}` })),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([
      ...Array(8).fill(200),
      ...Array(4).fill(201),
    ]);
    await expectCountersExact();
  });

  it('a date filter counts a range of up to 1000 posts and omits totalCount beyond', async () => {
    const busy = await newSpace(owner, 'Busy');
    await makePublic(owner, busy.id);
    const topic = await newTopic(owner, busy.id, 'All', 'public');
    await newPost(owner, busy.id, { topic, body: 'through the API' });
    // Bulk copies of that post straight into the table, each a second older (the range count reads
    // the posts, not the counters); copying the row keeps every other column as the API wrote it.
    await t.dataSource.query(
      `INSERT INTO posts
       SELECT (jsonb_populate_record(p, jsonb_build_object(
                'id', gen_random_uuid(), 'published_at', p.published_at - make_interval(secs => n)))).*
       FROM posts p, generate_series(1, 1000) AS n WHERE p.body = 'through the API'`,
    );
    const list = async (query: string) => {
      const response = await t.anonymous.get(`/v1/spaces/${busy.id}/posts?limit=1&${query}`);
      expectStatus(response, 200);
      return response.body as { items: unknown[]; totalCount?: number };
    };
    const everything = await list('publishedAfter=2000-01-01T00:00:00.000Z');
    expect(everything.items).toHaveLength(1);
    expect(everything).not.toHaveProperty('totalCount');
    const [oldest] = await t.dataSource.query(
      `SELECT min(published_at) AS at FROM posts WHERE body = 'through the API'`,
    );
    // strictly before: the oldest copy only; strictly after: 998 copies and the original
    const cut = new Date(new Date(oldest.at as string).getTime() + 1000).toISOString();
    expect((await list(`publishedBefore=${encodeURIComponent(cut)}`)).totalCount).toBe(1);
    expect((await list(`publishedAfter=${encodeURIComponent(cut)}`)).totalCount).toBe(999);
    expect((await list(`publishedAfter=${encodeURIComponent(cut)}&format=short-post`)).totalCount).toBe(999);
    expect((await list(`publishedAfter=${encodeURIComponent(cut)}&format=long-post`)).totalCount).toBe(0);
    // more than 1000 in the range: omitted even when the format leaves few
    expect(await list('publishedAfter=2000-01-01T00:00:00.000Z&format=long-post')).not.toHaveProperty(
      'totalCount',
    );
  });
});
