import { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { schemaDrift } from '../../../src/infrastructure/database/schema-drift';
import { Actor } from '../../support/actors';
import { timedEvent } from '../events/support';
import { addToGroup, newGroup } from '../memberships/support';
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
} from '../posts/support';

interface Result {
  type: string;
  item: { id: string; [member: string]: unknown };
  highlight: { text: string; matches: { start: number; end: number }[] };
}

const results = (response: Response): Result[] => {
  expectStatus(response, 200);
  return (response.body as { items: Result[] }).items;
};
/** The results as `type:id`, sorted: which things a reader finds, whatever their order. */
const found = (response: Response): string[] =>
  results(response)
    .map((result) => `${result.type}:${result.item.id}`)
    .sort();
const key = (type: string, id: string) => `${type}:${id}`;

async function createEvent(owner: Actor, spaceId: string, body: Record<string, unknown>): Promise<string> {
  const response = await owner.post(`/spaces/${spaceId}/events`, body);
  expectStatus(response, 201);
  return response.body.id as string;
}

describe('search (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let member: Actor;
  let crew: Actor;
  let stranger: Actor;
  let app: Actor;
  let space: { id: string; did: string };
  let other: { id: string; did: string };
  let hidden: { id: string; did: string };
  const post: Record<string, string> = {};
  const comment: Record<string, string> = {};
  let page: string;
  let event: string;
  const path = (q: string, extra = '') => `/v1/spaces/${space.id}/search?q=${encodeURIComponent(q)}${extra}`;
  const across = (q: string, extra = '') => `/v1/search?q=${encodeURIComponent(q)}${extra}`;

  beforeAll(async () => {
    t = await bootSpaces();
    [owner, member, crew, stranger, app] = await Promise.all([
      person(t),
      person(t),
      person(t),
      person(t),
      person(t),
    ]);
    space = await newSpace(owner, 'Search');
    await makePublic(owner, space.id);
    await admit(owner, space.id, member);
    await admit(owner, space.id, crew);
    const group = await newGroup(owner, space.id);
    await addToGroup(owner, space.id, group.id, crew);
    const topics = {
      public: await newTopic(owner, space.id, 'Public', 'public'),
      signedIn: await newTopic(owner, space.id, 'Signed in', 'signedIn'),
      members: await newTopic(owner, space.id, 'Members', 'members'),
      crew: await newTopic(owner, space.id, 'Crew', { groups: [group.id] }),
    };
    const write = async (name: string, author: Actor, body: Record<string, unknown>) => {
      t.clock.offsetMs += 1000;
      post[name] = (await newPost(author, space.id, body)).id;
    };
    await write('public', member, {
      topic: topics.public,
      title: 'Venue change',
      body: 'The zephyr meetup moves to the old mill café.<!--fold-->The basement zephyr door code is 4242.',
    });
    await write('signedIn', member, { topic: topics.signedIn, body: 'zephyr notes for the signed in' });
    await write('members', member, { topic: topics.members, body: 'zephyr plans for members only' });
    await write('crew', crew, { topic: topics.crew, body: 'zephyr secrets of the crew' });
    await write('deleted', member, { topic: topics.public, body: 'zephyr that was deleted' });
    expectStatus(await member.delete(`/v1/spaces/${space.id}/posts/${post.deleted}`), 200);
    for (const [name, on] of [
      ['public', 'public'],
      ['members', 'members'],
    ]) {
      const response = await member.post(`/v1/spaces/${space.id}/posts/${post[on]}/comments`, {
        body: `a zephyr comment on the ${name} post`,
      });
      expectStatus(response, 201);
      comment[name] = response.body.id as string;
    }
    const created = await owner.post(`/spaces/${space.id}/pages`, {
      title: 'Zephyr guide',
      body: 'How to reach the mill by bike.',
    });
    expectStatus(created, 201);
    page = created.body.id as string;
    event = await createEvent(
      owner,
      space.id,
      timedEvent({
        title: 'Zephyr night',
        description: 'Music at the mill',
        startsAt: '2027-01-14T17:00:00Z',
      }),
    );
    await createEvent(owner, space.id, timedEvent({ title: 'Zephyr members night', visibility: 'members' }));
    await createEvent(owner, space.id, timedEvent({ title: 'Zephyr draft night', visibility: 'draft' }));
    // Another public space, and a private one the member belongs to.
    other = await newSpace(owner, 'Other');
    await makePublic(owner, other.id);
    await admit(owner, other.id, member);
    post.other = (
      await newPost(owner, other.id, {
        topic: await newTopic(owner, other.id, 'O', 'public'),
        body: 'zephyr elsewhere',
      })
    ).id;
    hidden = await newSpace(owner, 'Hidden');
    await admit(owner, hidden.id, member);
    post.hidden = (
      await newPost(owner, hidden.id, {
        topic: await newTopic(owner, hidden.id, 'H', 'members'),
        body: 'zephyr hidden',
      })
    ).id;
  });

  afterAll(() => t?.close());

  const everything = () => [
    key('post', post.public),
    key('post', post.signedIn),
    key('post', post.members),
    key('post', post.crew),
    key('comment', comment.public),
    key('comment', comment.members),
    key('page', page),
    key('event', event),
  ];
  const sorted = (keys: string[]) => [...keys].sort();

  describe('who finds what: exactly the listings', () => {
    it('anonymous: public posts, pages and public events; no comments, no gated post, no count of them', async () => {
      const response = await t.anonymous.get(path('zephyr'));
      expect(found(response)).toEqual(
        sorted([key('post', post.public), key('page', page), key('event', event)]),
      );
      expect(response.body).not.toHaveProperty('totalCount');
      const card = results(response).find((result) => result.type === 'post')!.item;
      expect(card).not.toHaveProperty('viewer');
      expect(card).toMatchObject({ title: 'Venue change', format: 'long-post' });
    });

    it('a stranger signed in: also signedIn posts and the comments on what they read', async () => {
      expect(found(await stranger.get(path('zephyr')))).toEqual(
        sorted([
          key('post', post.public),
          key('post', post.signedIn),
          key('comment', comment.public),
          key('page', page),
          key('event', event),
        ]),
      );
    });

    it('a member: every topic but a group one; a group member and the owner: that one too', async () => {
      const withoutCrew = everything().filter((entry) => entry !== key('post', post.crew));
      const response = await member.get(path('zephyr'));
      expect(found(response)).toEqual(sorted(withoutCrew));
      const card = results(response).find((result) => result.type === 'post')!.item;
      expect(card.viewer).toEqual({ upvoted: false });
      expect(found(await crew.get(path('zephyr')))).toEqual(sorted(everything()));
      expect(found(await owner.get(path('zephyr')))).toEqual(sorted(everything()));
    });

    it('an app: a covering credential reads the member view, one not covering the space the anonymous one', async () => {
      const covering = member.grant(app, ['read:posts'], [space.did]);
      expect(found(await app.get(path('zephyr'), { credential: covering }))).toEqual(
        sorted(everything().filter((entry) => entry !== key('post', post.crew))),
      );
      const elsewhere = member.grant(app, ['read:posts'], [other.did]);
      // The public projection; comments on public posts as the thread listing shows them to this grant.
      expect(found(await app.get(path('zephyr'), { credential: elsewhere }))).toEqual(
        sorted([
          key('post', post.public),
          key('comment', comment.public),
          key('page', page),
          key('event', event),
        ]),
      );
      // Without read:posts the thread listing is refused: no comments either.
      const noRead = member.grant(app, ['write:posts']);
      expect(found(await app.get(path('zephyr'), { credential: noRead }))).toEqual(
        sorted([key('post', post.public), key('page', page), key('event', event)]),
      );
    });

    it('a folded body is searched above its fold only', async () => {
      expect(found(await owner.get(path('basement')))).toEqual([]);
      expect(found(await owner.get(path('4242')))).toEqual([]);
      expect(found(await owner.get(path('mill')))).toContain(key('post', post.public));
    });

    it('deleted things vanish at once: a deleted post, comment, disabled page and deleted event', async () => {
      const topic = await newTopic(owner, space.id, 'Ephemeral', 'public');
      const doomed = await newPost(member, space.id, { topic, body: 'ephemeral quokka post' });
      const reply = await member.post(`/v1/spaces/${space.id}/posts/${post.public}/comments`, {
        body: 'ephemeral quokka comment',
      });
      const doomedPage = await owner.post(`/spaces/${space.id}/pages`, {
        title: 'Quokka page',
        body: 'ephemeral',
      });
      const doomedEvent = await createEvent(owner, space.id, timedEvent({ title: 'Quokka night' }));
      expect(found(await member.get(path('quokka')))).toEqual(
        sorted([
          key('post', doomed.id),
          key('comment', reply.body.id as string),
          key('page', doomedPage.body.id as string),
          key('event', doomedEvent),
        ]),
      );
      expectStatus(await member.delete(`/v1/spaces/${space.id}/posts/${doomed.id}`), 200);
      expectStatus(await member.delete(`/v1/spaces/${space.id}/comments/${reply.body.id as string}`), 200);
      expectStatus(
        await owner.put(`/spaces/${space.id}/pages/${doomedPage.body.id as string}`, {
          title: 'Quokka page',
          body: 'ephemeral',
          enabled: false,
        }),
        200,
      );
      expectStatus(await owner.delete(`/spaces/${space.id}/events/${doomedEvent}`), 204);
      expect(found(await member.get(path('quokka')))).toEqual([]);
    });

    it('a post moved to a topic the reader cannot read is no longer found by them', async () => {
      const topic = await newTopic(owner, space.id, 'Movable', 'public');
      const moved = await newPost(member, space.id, { topic, body: 'wombat on the move' });
      expect(found(await t.anonymous.get(path('wombat')))).toEqual([key('post', moved.id)]);
      const members = (await member.get(`/v1/spaces/${space.id}/posts/${post.members}`)).body.post.topics[0]
        .id;
      expectStatus(await member.patch(`/v1/spaces/${space.id}/posts/${moved.id}`, { topic: members }), 200);
      expect(found(await t.anonymous.get(path('wombat')))).toEqual([]);
      expect(found(await member.get(path('wombat')))).toEqual([key('post', moved.id)]);
    });

    it("another space's things never appear; a hidden space is the one 404", async () => {
      expect(found(await owner.get(path('elsewhere')))).toEqual([]);
      expect(found(await owner.get(`/v1/spaces/${other.id}/search?q=elsewhere`))).toEqual([
        key('post', post.other),
      ]);
      const response = await stranger.get(`/v1/spaces/${hidden.id}/search?q=zephyr`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ code: 'E_NOT_FOUND', message: 'Not found' });
      expect(found(await member.get(`/v1/spaces/${hidden.id}/search?q=zephyr`))).toEqual([
        key('post', post.hidden),
      ]);
    });
  });

  describe('across the caller’s spaces (gated like the feed)', () => {
    it('needs a proof; covers only the spaces where the caller is an active member', async () => {
      expectStatus(await t.anonymous.get(across('zephyr')), 401);
      expect(found(await stranger.get(across('zephyr')))).toEqual([]);
      expect(found(await member.get(across('zephyr')))).toEqual(
        sorted([
          ...everything().filter((entry) => entry !== key('post', post.crew)),
          key('post', post.other),
          key('post', post.hidden),
        ]),
      );
      // The owner is a member of the three spaces too.
      expect(found(await crew.get(across('zephyr')))).toEqual(sorted(everything()));
    });

    it('a credential narrows it to the spaces it covers; one without read:posts is refused', async () => {
      const onlyOther = member.grant(app, ['read:posts'], [other.did]);
      expect(found(await app.get(across('zephyr'), { credential: onlyOther }))).toEqual([
        key('post', post.other),
      ]);
      expectStatus(await app.get(across('zephyr'), { credential: member.grant(app, ['write:posts']) }), 403);
    });
  });

  describe('the query', () => {
    it('orders by relevance, then recency: a title match outranks a body match, newer before older', async () => {
      const topic = await newTopic(owner, space.id, 'Ranking', 'public');
      t.clock.offsetMs += 1000;
      const older = await newPost(member, space.id, { topic, body: 'capybara in the body' });
      t.clock.offsetMs += 1000;
      const newer = await newPost(member, space.id, { topic, body: 'capybara in the body too' });
      t.clock.offsetMs += 1000;
      const titled = await newPost(member, space.id, { topic, title: 'Capybara', body: 'nothing else' });
      const order = results(await t.anonymous.get(path('capybara'))).map((result) => result.item.id);
      expect(order).toEqual([titled.id, newer.id, older.id]);
    });

    it('highlights the matched terms as plain text with offsets', async () => {
      const [result] = results(await t.anonymous.get(path('mill', '&types=posts')));
      const { text, matches } = result.highlight;
      expect(matches.length).toBeGreaterThan(0);
      for (const match of matches) expect(text.slice(match.start, match.end).toLowerCase()).toBe('mill');
      for (const mark of ['<', '>', '\u0002', '\u0003']) expect(text).not.toContain(mark);
      expect(text).not.toContain('basement');
    });

    it('folds accents both ways, and marks the accented word', async () => {
      const withAccent = results(await t.anonymous.get(path('cafe', '&types=posts')));
      expect(withAccent.map((result) => result.item.id)).toEqual([post.public]);
      const { text, matches } = withAccent[0].highlight;
      expect(matches.map((match) => text.slice(match.start, match.end))).toEqual(['café']);
      expect(found(await t.anonymous.get(path('CAFÉ', '&types=posts')))).toEqual([key('post', post.public)]);
    });

    it('matches the last word as a prefix while it is typed, not once it is followed by a space', async () => {
      expect(found(await t.anonymous.get(path('venue cha', '&types=posts')))).toEqual([
        key('post', post.public),
      ]);
      expect(found(await t.anonymous.get(path('venue cha ', '&types=posts')))).toEqual([]);
      expect(found(await t.anonymous.get(path('"venue cha"', '&types=posts')))).toEqual([]);
    });

    it('speaks web search syntax: quotes, OR, -', async () => {
      const q = (query: string) => member.get(path(query, '&types=posts'));
      expect(found(await q('"venue change"'))).toEqual([key('post', post.public)]);
      expect(found(await q('"change venue"'))).toEqual([]);
      expect(found(await q('zephyr -members -crew -signed -mill'))).toEqual([]);
      expect(found(await q('zephyr -mill'))).toEqual(
        sorted([key('post', post.signedIn), key('post', post.members)]),
      );
      expect(found(await q('mill OR plans'))).toEqual(
        sorted([key('post', post.public), key('post', post.members)]),
      );
    });

    it('types narrows the kinds', async () => {
      expect(found(await member.get(path('zephyr', '&types=pages,events')))).toEqual(
        sorted([key('page', page), key('event', event)]),
      );
      expect(found(await member.get(path('zephyr', '&types=comments')))).toEqual(
        sorted([key('comment', comment.public), key('comment', comment.members)]),
      );
    });

    it('types narrows the kinds without changing what matches: a frequent lone word is whole in every kind', async () => {
      const topic = await newTopic(owner, space.id, 'Pelicans', 'public');
      const posts: string[] = [];
      // More than a page of posts hold the word: alone and typed, it is read as the whole word.
      for (let n = 0; n < 21; n += 1)
        posts.push((await newPost(member, space.id, { topic, body: `pelican ${n}` })).id);
      const reply = await member.post(`/v1/spaces/${space.id}/posts/${posts[0]}/comments`, {
        body: 'pelicans',
      });
      expectStatus(reply, 201);
      const titled = await owner.post(`/spaces/${space.id}/pages`, {
        title: 'Pelicans',
        body: 'by the lake',
      });
      expectStatus(titled, 201);
      expect(found(await member.get(path('pelican', '&limit=50')))).toEqual(
        sorted(posts.map((id) => key('post', id))),
      );
      expect(found(await member.get(path('pelican', '&types=comments')))).toEqual([]);
      expect(found(await member.get(path('pelican', '&types=pages,events')))).toEqual([]);
      expect(found(await member.get(across('pelican', '&types=comments,pages')))).toEqual([]);
      // Rarer in the reader's posts, the typed word is a prefix in every kind alike.
      expect(found(await member.get(path('pelica', '&types=comments,pages')))).toEqual(
        sorted([key('comment', reply.body.id as string), key('page', titled.body.id as string)]),
      );
    });

    it('pages with keyset cursors, forward and back, without repeats', async () => {
      const all = results(await owner.get(path('zephyr'))).map((result) => result.item.id);
      expect(all).toHaveLength(8);
      const seen: string[] = [];
      let cursor: string | null = null;
      const pages: Response[] = [];
      do {
        const response: Response = await owner.get(
          path('zephyr', `&limit=3${cursor ? `&after=${cursor}` : ''}`),
        );
        pages.push(response);
        seen.push(...results(response).map((result) => result.item.id));
        cursor = response.body.nextCursor as string | null;
      } while (cursor);
      expect(seen).toEqual(all);
      const back = await owner.get(
        path('zephyr', `&limit=3&before=${pages[2].body.previousCursor as string}`),
      );
      expect(results(back).map((result) => result.item.id)).toEqual(all.slice(3, 6));
      const forged = await owner.get(path('zephyr', '&after=bm9wZQ'));
      expect(forged.status).toBe(400);
    });

    it.each<[string, string]>([
      ['an empty q', ''],
      ['q of punctuation only', '?!…'],
      ['only excluded words', '-zephyr -mill'],
      ['too long a q', 'a'.repeat(201)],
      ['too many words', 'a b c d e f g h i'],
    ])('%s is a 400 naming q', async (_, q) => {
      const response = await t.anonymous.get(path(q));
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'E_INVALID_REQUEST', details: [{ path: 'q' }] });
    });

    it('no q, an unknown type or a bad limit is a 400', async () => {
      expect((await t.anonymous.get(`/v1/spaces/${space.id}/search`)).status).toBe(400);
      expect((await t.anonymous.get(path('zephyr', '&types=posts,users'))).status).toBe(400);
      expect((await t.anonymous.get(path('zephyr', '&limit=101'))).status).toBe(400);
    });
  });

  it('has a migration that creates exactly what the entities declare', async () => {
    expect((await schemaDrift(t.app.get(DataSource))).up).toEqual([]);
  });
});
