import { Actor } from '../../support/actors';
import { expectNotFound, walk } from '../spaces/support';
import {
  admit,
  bootSpaces,
  expectStatus,
  ids,
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
  publishedAt: string;
  viewer?: { upvoted: boolean };
}

describe('GET /v1/spaces/{space}/posts (api-spec.md "Optional-auth reads", rule 1)', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let member: Actor;
  let app: Actor;
  let space: { id: string; did: string };
  let topicA: string;
  let topicB: string;
  let foreignTopic: string;
  let membersTopic: string;
  let p: Card[];
  const path = () => `/v1/spaces/${space.id}/posts`;

  beforeAll(async () => {
    t = await bootSpaces();
    [owner, member, app] = await Promise.all([person(t), person(t), person(t)]);
    space = await newSpace(owner, 'Listing');
    await makePublic(owner, space.id);
    await admit(owner, space.id, member);
    topicA = await newTopic(owner, space.id, 'A', 'public');
    topicB = await newTopic(owner, space.id, 'B', 'public');
    membersTopic = await newTopic(owner, space.id, 'M', 'members');
    const group = await owner.post(`/spaces/${space.id}/groups`, { name: 'Crew' });
    const groupTopic = await newTopic(owner, space.id, 'G', { groups: [group.body.id as string] });
    const other = await newSpace(owner, 'Other');
    await makePublic(owner, other.id);
    foreignTopic = await newTopic(owner, other.id, 'F', 'public');
    await newPost(owner, other.id, { topic: foreignTopic, body: 'elsewhere' });
    const bodies: Record<string, unknown>[] = [
      { topic: topicA, body: 'p0 short' },
      { topic: topicA, body: 'p1 long', title: 'P1' },
      { topic: topicB, body: 'p2 long', title: 'P2' },
      { topic: membersTopic, body: 'p3 members' },
      { topic: groupTopic, body: 'p4 crew' },
      { topic: topicB, body: 'p5 short' },
    ];
    p = [];
    for (const body of bodies) {
      t.clock.offsetMs += 1000;
      p.push((await newPost(body.topic === groupTopic ? owner : member, space.id, body)) as unknown as Card);
    }
    // a deleted post and a post of a deleted topic are never listed
    const gone = await newPost(member, space.id, { topic: topicA, body: 'deleted' });
    expectStatus(await member.delete(`${path()}/${gone.id}`), 200);
    const doomed = await newTopic(owner, space.id, 'Doomed', 'public');
    await newPost(member, space.id, { topic: doomed, body: 'in a deleted topic' });
    expectStatus(await owner.delete(`/spaces/${space.id}/topics/${doomed}`), 204);
  });

  afterAll(() => t?.close());

  const idsOf = (...indexes: number[]) => indexes.map((index) => p[index].id);

  it('anonymous: the public projection, newest first, no viewer block, totalCount', async () => {
    const response = await t.anonymous.get(path());
    expectStatus(response, 200);
    const body = response.body as Listing<Card>;
    expect(ids(response)).toEqual(idsOf(5, 2, 1, 0));
    expect(body.totalCount).toBe(4);
    expect(body.nextCursor).toBeNull();
    for (const card of body.items) {
      expect(card).not.toHaveProperty('viewer');
      expect(card).not.toHaveProperty('body');
      expect(card).toHaveProperty('protocol');
    }
    expect(body.items[2]).toMatchObject({
      format: 'long-post',
      title: 'P1',
      displayTitle: 'P1',
      excerpt: 'p1 long',
    });
  });

  it('the member view lists every topic the member reads, each card with viewer', async () => {
    const response = await member.get(path());
    expect(ids(response)).toEqual(idsOf(5, 3, 2, 1, 0));
    expect(response.body.totalCount).toBe(5);
    for (const card of response.body.items as Card[]) expect(card.viewer).toEqual({ upvoted: false });
    const admin = await owner.get(path());
    expect(ids(admin)).toEqual(idsOf(5, 4, 3, 2, 1, 0));
  });

  it('a credential without read:posts, or not covering the space, reads the anonymous projection', async () => {
    const noRead = member.grant(app, ['write:posts']);
    const a = await app.get(path(), { credential: noRead });
    expect(ids(a)).toEqual(idsOf(5, 2, 1, 0));
    expect(a.body.items[0]).not.toHaveProperty('viewer');
    const elsewhere = member.grant(app, ['read:posts'], ['did:plat:2222222222222222222222222222222']);
    expect(ids(await app.get(path(), { credential: elsewhere }))).toEqual(idsOf(5, 2, 1, 0));
    const covering = member.grant(app, ['read:posts'], [space.did]);
    const c = await app.get(path(), { credential: covering });
    expect(ids(c)).toEqual(idsOf(5, 3, 2, 1, 0));
    expect(c.body.items[0].viewer).toEqual({ upvoted: false });
  });

  it('filters compose; totalCount reflects the filtered set', async () => {
    const list = async (query: string, caller: Actor | null = null) => {
      const response = caller
        ? await caller.get(`${path()}?${query}`)
        : await t.anonymous.get(`${path()}?${query}`);
      expectStatus(response, 200);
      return { ids: ids(response), total: response.body.totalCount as number };
    };
    expect(await list('format=long-post')).toEqual({ ids: idsOf(2, 1), total: 2 });
    expect(await list('format=short-post')).toEqual({ ids: idsOf(5, 0), total: 2 });
    expect(await list(`topic=${topicA}`)).toEqual({ ids: idsOf(1, 0), total: 2 });
    expect(await list(`topic=${topicB}&format=short-post`)).toEqual({ ids: idsOf(5), total: 1 });
    expect(await list('sort=oldest')).toEqual({ ids: idsOf(0, 1, 2, 5), total: 4 });
    expect(await list('sort=newest')).toEqual({ ids: idsOf(5, 2, 1, 0), total: 4 });
    const after = encodeURIComponent(p[1].publishedAt);
    const before = encodeURIComponent(p[5].publishedAt);
    expect(await list(`publishedAfter=${after}`)).toEqual({ ids: idsOf(5, 2), total: 2 });
    expect(await list(`publishedBefore=${before}`)).toEqual({ ids: idsOf(2, 1, 0), total: 3 });
    expect(await list(`publishedAfter=${after}&publishedBefore=${before}&sort=oldest`)).toEqual({
      ids: idsOf(2),
      total: 1,
    });
    expect(await list(`topic=${membersTopic}`, member)).toEqual({ ids: idsOf(3), total: 1 });
    for (const topic of [membersTopic, foreignTopic, 'topic_0190f1a2b3c4d5e6f708192a3b4c5d6e', 'nonsense']) {
      expect(await list(`topic=${topic}`)).toEqual({ ids: [], total: 0 });
    }
    expect(await list(`topic=${foreignTopic}`, member)).toEqual({ ids: [], total: 0 });
  });

  it('refuses malformed filters with 400', async () => {
    for (const query of [
      'format=video',
      'sort=top',
      'publishedAfter=yesterday',
      'publishedBefore=1',
      'limit=0',
      'limit=101',
      'after=garbage',
    ]) {
      const response = await t.anonymous.get(`${path()}?${query}`);
      expectStatus(response, 400);
      expect(response.body.code).toBe('E_INVALID_REQUEST');
    }
  });

  it('cursors walk forward and back in both sorts with a constant totalCount', async () => {
    for (const [query, expected] of [
      ['sort=newest', idsOf(5, 2, 1, 0)],
      ['sort=oldest', idsOf(0, 1, 2, 5)],
    ] as const) {
      const { forward, backward, pages } = await walk<Card>(t.anonymous, `${path()}?${query}`, 1);
      expect(forward.map((card) => card.id)).toEqual(expected);
      expect(backward.map((card) => card.id)).toEqual(expected);
      expect(pages).toBe(4);
    }
    const first = await member.get(`${path()}?limit=2`);
    expect(ids(first)).toEqual(idsOf(5, 3));
    expect(first.body.totalCount).toBe(5);
    const second = await member.get(`${path()}?limit=2&after=${encodeURIComponent(first.body.nextCursor)}`);
    expect(ids(second)).toEqual(idsOf(2, 1));
    expect(second.body.totalCount).toBe(5);
  });

  it('the space fetch words the count of posts outside public topics (privatePostCountSummary)', async () => {
    const fetched = await t.anonymous.get(`/v1/spaces/${space.id}`);
    expectStatus(fetched, 200);
    expect(fetched.body.privatePostCountSummary).toBe('a handful of private posts');
    const empty = await newSpace(owner, 'Empty');
    await makePublic(owner, empty.id);
    expect((await t.anonymous.get(`/v1/spaces/${empty.id}`)).body.privatePostCountSummary).toBe(
      'no private posts',
    );
  });

  it('a private space lists only for members; outsiders get the 404', async () => {
    const hidden = await newSpace(owner, 'Hidden');
    const topic = await newTopic(owner, hidden.id, 'Open', 'public');
    const post = await newPost(owner, hidden.id, { topic, body: 'secret' });
    expectNotFound(await t.anonymous.get(`/v1/spaces/${hidden.id}/posts`));
    expectNotFound(await member.get(`/v1/spaces/${hidden.id}/posts`));
    expect(ids(await owner.get(`/v1/spaces/${hidden.id}/posts`))).toEqual([post.id]);
    expectNotFound(await t.anonymous.get('/v1/spaces/space_0190f1a2b3c4d5e6f708192a3b4c5d6e/posts'));
  });
});
