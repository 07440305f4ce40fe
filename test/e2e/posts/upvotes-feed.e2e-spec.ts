import request from 'supertest';
import { Actor } from '../../support/actors';
import { expectNotFound } from '../spaces/support';
import {
  admit,
  bootSpaces,
  expectStatus,
  ids,
  makePublic,
  newPost,
  newSpace,
  newTopic,
  person,
  SpacesTestApp,
} from './support';

describe('post upvotes and the feed (api-spec.md "Writes", "Credential-gated reads")', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let member: Actor;
  let second: Actor;
  let outsider: Actor;
  let app: Actor;
  let space: { id: string; did: string };
  let publicTopic: string;
  let groupTopic: string;

  beforeAll(async () => {
    t = await bootSpaces();
    [owner, member, second, outsider, app] = await Promise.all([
      person(t),
      person(t),
      person(t),
      person(t),
      person(t),
    ]);
    space = await newSpace(owner, 'Votes');
    await makePublic(owner, space.id);
    await admit(owner, space.id, member);
    await admit(owner, space.id, second);
    publicTopic = await newTopic(owner, space.id, 'General', 'public');
    const group = await owner.post(`/spaces/${space.id}/groups`, { name: 'Crew' });
    groupTopic = await newTopic(owner, space.id, 'Crew', { groups: [group.body.id as string] });
  });

  afterAll(() => t?.close());

  describe('upvotes', () => {
    it('PUT always answers upvoted true, DELETE false; idempotent counts that never go negative', async () => {
      const post = await newPost(owner, space.id, { topic: publicTopic, body: 'vote me' });
      const path = `/v1/spaces/${space.id}/posts/${post.id}/upvote`;
      expect((await member.put(path)).body).toEqual({ upvoted: true, upvoteCount: 1 });
      expect((await member.put(path)).body).toEqual({ upvoted: true, upvoteCount: 1 });
      expect((await second.put(path)).body).toEqual({ upvoted: true, upvoteCount: 2 });
      const listing = await member.get(`/v1/spaces/${space.id}/posts`);
      const card = listing.body.items.find((item: { id: string }) => item.id === post.id);
      expect(card).toMatchObject({ upvoteCount: 2, viewer: { upvoted: true } });
      const single = await owner.get(`/v1/spaces/${space.id}/posts/${post.id}`);
      expect(single.body.post).toMatchObject({ upvoteCount: 2, viewer: { upvoted: false } });
      expect((await t.anonymous.get(`/v1/spaces/${space.id}/posts/${post.id}`)).body.post.upvoteCount).toBe(
        2,
      );

      const withdrawn = await member.delete(path);
      expectStatus(withdrawn, 200);
      expect(withdrawn.body).toEqual({ upvoted: false, upvoteCount: 1 });
      expect((await member.delete(path)).body).toEqual({ upvoted: false, upvoteCount: 1 });
      expect((await owner.delete(path)).body).toEqual({ upvoted: false, upvoteCount: 1 });
      expect((await second.delete(path)).body).toEqual({ upvoted: false, upvoteCount: 0 });
      expect((await second.delete(path)).body).toEqual({ upvoted: false, upvoteCount: 0 });
    });

    it('concurrent upvotes by one person count once', async () => {
      const post = await newPost(owner, space.id, { topic: publicTopic, body: 'race' });
      const path = `/v1/spaces/${space.id}/posts/${post.id}/upvote`;
      const answers = await Promise.all([member.put(path), member.put(path), member.put(path)]);
      for (const answer of answers) expect(answer.body.upvoted).toBe(true);
      expect((await member.put(path)).body).toEqual({ upvoted: true, upvoteCount: 1 });
    });

    it('403 for non-members and grants without write:upvotes; 404 for unreadable, foreign, deleted or hidden posts', async () => {
      const post = await newPost(owner, space.id, { topic: publicTopic, body: 'guarded' });
      const path = `/v1/spaces/${space.id}/posts/${post.id}/upvote`;
      expectStatus(await outsider.put(path), 403);
      expectStatus(
        await app.put(path, {}, { credential: member.grant(app, ['read:posts', 'write:posts']) }),
        403,
      );
      expectStatus(await app.put(path, {}, { credential: member.grant(app, ['write:upvotes']) }), 403);
      const granted = await app.put(
        path,
        {},
        { credential: member.grant(app, ['read:posts', 'write:upvotes']) },
      );
      expect(granted.body).toEqual({ upvoted: true, upvoteCount: 1 });

      const crew = await newPost(owner, space.id, { topic: groupTopic, body: 'crew' });
      expectNotFound(await member.put(`/v1/spaces/${space.id}/posts/${crew.id}/upvote`));
      expect((await owner.put(`/v1/spaces/${space.id}/posts/${crew.id}/upvote`)).body.upvoted).toBe(true);

      const other = await newSpace(member, 'Mine');
      expectNotFound(await member.put(`/v1/spaces/${other.id}/posts/${post.id}/upvote`));
      expectNotFound(
        await member.put(`/v1/spaces/${space.id}/posts/post_0190f1a2b3c4d5e6f708192a3b4c5d6e/upvote`),
      );
      const gone = await newPost(member, space.id, { topic: publicTopic, body: 'gone' });
      expectStatus(await member.delete(`/v1/spaces/${space.id}/posts/${gone.id}`), 200);
      expectNotFound(await member.put(`/v1/spaces/${space.id}/posts/${gone.id}/upvote`));

      const hiddenTopic = await newTopic(member, other.id, 'Open', 'public');
      const hidden = await newPost(member, other.id, { topic: hiddenTopic, body: 'hidden' });
      expectNotFound(await outsider.put(`/v1/spaces/${other.id}/posts/${hidden.id}/upvote`));
    });
  });

  describe('GET /v1/feed', () => {
    it('401 without Authorization; an empty page without spaces', async () => {
      const anonymous = await request(t.http).get('/v1/feed');
      expectStatus(anonymous, 401);
      const lonely = await person(t);
      const empty = await lonely.get('/v1/feed');
      expectStatus(empty, 200);
      expect(empty.body).toMatchObject({ items: [], nextCursor: null });
    });

    it('posts of every space the person is an active member of, newest first across spaces, with space blocks', async () => {
      const reader = await person(t);
      const spaceA = await newSpace(owner, 'Alpha');
      await makePublic(owner, spaceA.id);
      const spaceB = await newSpace(owner, 'Beta'); // private
      const spaceC = await newSpace(owner, 'Gamma'); // not joined
      await makePublic(owner, spaceC.id);
      await admit(owner, spaceA.id, reader);
      await admit(owner, spaceB.id, reader);
      const topicA = await newTopic(owner, spaceA.id, 'A', 'public');
      const topicAm = await newTopic(owner, spaceA.id, 'Members', 'members');
      const crewGroup = await owner.post(`/spaces/${spaceA.id}/groups`, { name: 'Crew' });
      const topicAg = await newTopic(owner, spaceA.id, 'Crew', { groups: [crewGroup.body.id as string] });
      const topicB = await newTopic(owner, spaceB.id, 'B', 'members');
      const topicC = await newTopic(owner, spaceC.id, 'C', 'public');
      const posted: string[] = [];
      for (const [spaceId, topic] of [
        [spaceA.id, topicA],
        [spaceB.id, topicB],
        [spaceC.id, topicC],
        [spaceA.id, topicAm],
        [spaceA.id, topicAg],
        [spaceB.id, topicB],
      ]) {
        t.clock.offsetMs += 1000;
        posted.push((await newPost(owner, spaceId, { topic, body: `in ${spaceId}` })).id);
      }
      const expected = [posted[5], posted[3], posted[1], posted[0]];
      const feed = await reader.get('/v1/feed');
      expectStatus(feed, 200);
      expect(ids(feed)).toEqual(expected);
      expect(feed.body.items[0].space).toEqual({
        id: spaceB.id,
        did: spaceB.did,
        name: 'Beta',
        url: expect.stringMatching(/^https:\/\/[a-z0-9-]+\.[^/]+$/),
      });
      expect(feed.body.items[0].viewer).toEqual({ upvoted: false });
      expect(feed.body.items[0]).not.toHaveProperty('body');
      expect(feed.body.items[0].canonicalUri.startsWith(feed.body.items[0].space.url)).toBe(true);

      const walked: string[] = [];
      let after: string | null = null;
      do {
        const page = await reader.get(
          `/v1/feed?limit=1${after ? `&after=${encodeURIComponent(after)}` : ''}`,
        );
        expectStatus(page, 200);
        walked.push(...ids(page));
        after = page.body.nextCursor;
      } while (after);
      expect(walked).toEqual(expected);

      const onlyA = reader.grant(app, ['read:posts'], [spaceA.did]);
      expect(ids(await app.get('/v1/feed', { credential: onlyA }))).toEqual([posted[3], posted[0]]);
      expectStatus(await app.get('/v1/feed', { credential: reader.grant(app, ['write:posts']) }), 403);

      expectStatus(await reader.delete(`/spaces/${spaceB.id}/membership`), 204);
      expect(ids(await reader.get('/v1/feed'))).toEqual([posted[3], posted[0]]);
    });

    it('pages by topic-bounded reads: a busy topic beside quiet ones, equal times, walked both ways', async () => {
      // The feed reads at most a page of keys per topic past the cursor (feed-recent.ts); the walk
      // must still equal the space's own listing, which orders the same posts by another index.
      const reader = await person(t);
      const busy = await newSpace(owner, 'Busy');
      await admit(owner, busy.id, reader);
      const loud = await newTopic(owner, busy.id, 'Loud', 'members');
      const quiet = await newTopic(owner, busy.id, 'Quiet', 'members');
      const other = await newTopic(owner, busy.id, 'Other', 'public');
      for (let index = 0; index < 14; index += 1) {
        if (index % 3 !== 0) t.clock.offsetMs += 1000; // every third post shares its time with the previous one
        const topic = index % 5 === 4 ? quiet : index === 6 ? other : loud;
        await newPost(owner, busy.id, { topic, body: `post ${index}` });
      }
      const listing = await reader.get(`/v1/spaces/${busy.id}/posts?limit=100`);
      expectStatus(listing, 200);
      const expected = ids(listing);
      expect(expected).toHaveLength(14);

      const pages: { ids: string[]; previousCursor: string | null }[] = [];
      let after: string | null = null;
      do {
        const page = await reader.get(
          `/v1/feed?limit=3${after ? `&after=${encodeURIComponent(after)}` : ''}`,
        );
        expectStatus(page, 200);
        pages.push({ ids: ids(page), previousCursor: page.body.previousCursor as string | null });
        after = page.body.nextCursor;
      } while (after);
      expect(pages.flatMap((page) => page.ids)).toEqual(expected);

      // From the last page back to the first by `before` cursors.
      const backward: string[] = [];
      let before = pages[pages.length - 1].previousCursor;
      while (before) {
        const page = await reader.get(`/v1/feed?limit=3&before=${encodeURIComponent(before)}`);
        expectStatus(page, 200);
        backward.unshift(...ids(page));
        before = page.body.previousCursor as string | null;
      }
      expect(backward).toEqual(pages.slice(0, -1).flatMap((page) => page.ids));
    });
  });
});
