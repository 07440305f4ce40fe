import request from 'supertest';
import { Actor } from '../../support/actors';
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

const NOT_FOUND = { code: 'E_NOT_FOUND', message: 'Not found' };

/**
 * api-spec.md "Authentication" items 5, 6 and 8 on every credential-aware route: a credential
 * whose `att` names only another space (S2) is answered as a credential that does not cover the
 * space (S1): the anonymous projection on reads (no `viewer`, nothing non-public: the 404 for a
 * non-public post's comments), 403 on writes to a public space, the 404 on a private one.
 */
describe('a credential naming only another space (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let member: Actor;
  let app: Actor;
  let s1: { id: string; did: string };
  let s2: { id: string; did: string };
  let hidden: { id: string; did: string };
  let publicPost: string;
  let membersPost: string;
  let hiddenPost: string;
  let s2Post: string;
  let memberComment: string;
  let s2Only: string;
  let everywhere: string;

  const everyScope = ['read:posts', 'write:posts', 'write:comments', 'write:upvotes'];

  beforeAll(async () => {
    t = await bootSpaces();
    [owner, member, app] = await Promise.all([person(t), person(t), person(t)]);
    s1 = await newSpace(owner, 'One');
    s2 = await newSpace(owner, 'Two');
    hidden = await newSpace(owner, 'Hidden');
    await makePublic(owner, s1.id);
    await makePublic(owner, s2.id);
    for (const space of [s1, s2, hidden]) await admit(owner, space.id, member);
    const publicTopic = await newTopic(owner, s1.id, 'Open', 'public');
    const membersTopic = await newTopic(owner, s1.id, 'Inside', 'members');
    publicPost = (await newPost(member, s1.id, { topic: publicTopic, body: 'Out loud' })).id;
    membersPost = (await newPost(member, s1.id, { topic: membersTopic, body: 'Among us' })).id;
    hiddenPost = (
      await newPost(member, hidden.id, {
        topic: await newTopic(owner, hidden.id, 'H', 'public'),
        body: 'Shh',
      })
    ).id;
    // S2's post is for its members only: a credential covering S2 reads it as the member.
    s2Post = (
      await newPost(member, s2.id, {
        topic: await newTopic(owner, s2.id, 'Inside two', 'members'),
        body: 'Over here',
      })
    ).id;
    const created = await member.post(`/v1/spaces/${s1.id}/posts/${publicPost}/comments`, { body: 'Mine' });
    expectStatus(created, 201);
    memberComment = created.body.id as string;
    expectStatus(await member.put(`/v1/spaces/${s1.id}/posts/${publicPost}/upvote`), 200);
    expectStatus(await member.put(`/v1/spaces/${s1.id}/comments/${memberComment}/upvote`), 200);
    s2Only = member.grant(app, everyScope, [s2.did]);
    everywhere = member.grant(app, everyScope, ['*']);
  });

  afterAll(async () => {
    await t.close();
  });

  const as = (credential: string) => ({ credential });

  describe('reads', () => {
    it('GET /v1/spaces/{S1}/posts: the anonymous projection (public posts, no viewer)', async () => {
      const covering = await app.get(`/v1/spaces/${s1.id}/posts`, as(everywhere));
      expect(covering.body.items.map((item: { id: string }) => item.id).sort()).toEqual(
        [publicPost, membersPost].sort(),
      );
      const response = await app.get(`/v1/spaces/${s1.id}/posts`, as(s2Only));
      expectStatus(response, 200);
      expect(response.body).toEqual((await request(t.http).get(`/v1/spaces/${s1.id}/posts`)).body);
      expect(response.body.items.map((item: { id: string }) => item.id)).toEqual([publicPost]);
      expect(response.body.items[0].viewer).toBeUndefined();
    });

    it('GET /v1/spaces/{S1}/posts/{postId}: anonymous (no viewer; a members post gated)', async () => {
      const open = await app.get(`/v1/spaces/${s1.id}/posts/${publicPost}`, as(s2Only));
      expectStatus(open, 200);
      expect(open.body.state).toBe('eligible');
      expect(open.body.post.viewer).toBeUndefined();
      const gated = await app.get(`/v1/spaces/${s1.id}/posts/${membersPost}`, as(s2Only));
      expect(gated.body).toMatchObject({ state: 'gated', reason: 'spaceMembers' });
    });

    it('GET /v1/spaces/{S1}/posts/{postId}/comments: anonymous (viewer.upvoted false; 404 for a members post)', async () => {
      const covering = await app.get(`/v1/spaces/${s1.id}/posts/${publicPost}/comments`, as(everywhere));
      expect(covering.body.items[0].viewer).toEqual({ upvoted: true });
      const response = await app.get(`/v1/spaces/${s1.id}/posts/${publicPost}/comments`, as(s2Only));
      expectStatus(response, 200);
      expect(response.body.items.map((item: { id: string }) => item.id)).toEqual([memberComment]);
      expect(response.body.items[0].viewer).toEqual({ upvoted: false });
      const members = await app.get(`/v1/spaces/${s1.id}/posts/${membersPost}/comments`, as(s2Only));
      expectStatus(members, 404);
      expect(members.body).toEqual(NOT_FOUND);
    });

    it('GET on a private space: the 404 (posts, single post, comments)', async () => {
      for (const path of [
        `/v1/spaces/${hidden.id}/posts`,
        `/v1/spaces/${hidden.id}/posts/${hiddenPost}`,
        `/v1/spaces/${hidden.id}/posts/${hiddenPost}/comments`,
      ]) {
        expectStatus(await app.get(path, as(everywhere)), 200);
        const response = await app.get(path, as(s2Only));
        expectStatus(response, 404);
        expect(response.body).toEqual(NOT_FOUND);
      }
    });

    it('GET /v1/feed: only the covered space’s posts (S2’s, none of S1’s)', async () => {
      const feedIds = (response: request.Response) =>
        (response.body.items as { id: string }[]).map((item) => item.id);
      const covering = await app.get('/v1/feed', as(everywhere));
      expectStatus(covering, 200);
      expect(feedIds(covering).sort()).toEqual([publicPost, membersPost, hiddenPost, s2Post].sort());
      const response = await app.get('/v1/feed', as(s2Only));
      expectStatus(response, 200);
      expect(feedIds(response)).toEqual([s2Post]);
      expect(response.body.items[0].space).toMatchObject({ id: s2.id, did: s2.did });
    });

    it('GET /spaces/invites/{code}: the preview does not tell the standing', async () => {
      const invite = await owner.post(`/spaces/${s1.id}/my-invite`, {});
      const path = `/spaces/invites/${invite.body.inviteCode}`;
      expect((await app.get(path, as(everywhere))).body.userStatus).toEqual({ isMember: true });
      expect((await member.get(path)).body.userStatus).toEqual({ isMember: true });
      const response = await app.get(path, as(s2Only));
      expectStatus(response, 200);
      expect(response.body.userStatus).toEqual({ isMember: false });
    });
  });

  describe('writes: 403 on a public space, the 404 on a private one', () => {
    const writes = (): [string, string, unknown?][] => [
      ['POST', `/v1/spaces/{space}/posts`, { topic: 'topic_0190f6a8c5a87b3c9d1e2f3a4b5c6d7e', body: 'x' }],
      ['PATCH', `/v1/spaces/{space}/posts/{post}`, { body: 'edited' }],
      ['DELETE', `/v1/spaces/{space}/posts/{post}`],
      ['PUT', `/v1/spaces/{space}/posts/{post}/upvote`],
      ['DELETE', `/v1/spaces/{space}/posts/{post}/upvote`],
      ['POST', `/v1/spaces/{space}/posts/{post}/comments`, { body: 'x' }],
      ['PATCH', `/v1/spaces/{space}/comments/{comment}`, { body: 'edited' }],
      ['DELETE', `/v1/spaces/{space}/comments/{comment}`],
      ['PUT', `/v1/spaces/{space}/comments/{comment}/upvote`],
      ['DELETE', `/v1/spaces/{space}/comments/{comment}/upvote`],
      ['POST', `/v1/spaces/{space}/media`, { filename: 'a.png', contentType: 'image/png' }],
    ];

    it.each(writes().map(([method, path, body]) => [`${method} ${path}`, method, path, body]))(
      '%s',
      async (_name, method, path, body) => {
        const fill = (space: string, post: string) =>
          (path as string)
            .replace('{space}', space)
            .replace('{post}', post)
            .replace('{comment}', memberComment);
        const onPublic = await app.send(method as string, fill(s1.id, publicPost), body, as(s2Only));
        expectStatus(onPublic, 403);
        const onHidden = await app.send(method as string, fill(hidden.id, hiddenPost), body, as(s2Only));
        expectStatus(onHidden, 404);
        expect(onHidden.body).toEqual(NOT_FOUND);
      },
    );

    it('GET /v1/spaces/{space}/media/{mediaId}: the constant 404 on both (only the uploader sees a media, design.md §11)', async () => {
      for (const space of [s1.id, hidden.id]) {
        const response = await app.get(
          `/v1/spaces/${space}/media/media_0190f6a8c5a87b3c9d1e2f3a4b5c6d7e`,
          as(s2Only),
        );
        expectStatus(response, 404);
        expect(response.body).toEqual(NOT_FOUND);
      }
    });

    it('left the member’s content untouched', async () => {
      const post = await member.get(`/v1/spaces/${s1.id}/posts/${publicPost}`);
      expect(post.body.post).toMatchObject({ upvoteCount: 1, commentCount: 1, viewer: { upvoted: true } });
    });
  });
});
