import { Actor } from '../../support/actors';
import {
  admit,
  bootSpaces,
  comment,
  CommentBody,
  CommentPage,
  expectNotFound,
  expectStatus,
  insertPost,
  makePublic,
  newSpace,
  newTopic,
  person,
  SpacesTestApp,
} from './support';

describe('comment listing (api-spec.md "Comment", "Credential-gated reads")', () => {
  let t: SpacesTestApp;
  let alice: Actor; // owner, with an account
  let bob: Actor; // member, no account
  let carol: Actor; // not a member
  let app: Actor;
  let space: string;
  let postId: string;
  let path: string;
  const c: Record<string, CommentBody> = {};

  /** Each write gets its own instant. */
  const tick = () => {
    t.clock.offsetMs += 1000;
  };
  const ids = (page: CommentPage) => page.items.map((item) => item.id);
  const list = async (caller: Actor, query = '', options?: { credential?: string }) => {
    const response = await caller.get(`${path}${query}`, options);
    expectStatus(response, 200);
    return response.body as CommentPage;
  };

  beforeAll(async () => {
    t = await bootSpaces();
    [alice, bob, carol, app] = await Promise.all([person(t), person(t), person(t), person(t)]);
    expectStatus(await alice.signUp('alice-comments', 'Alice A'), 201);
    space = (await newSpace(alice)).id;
    await makePublic(alice, space);
    await admit(alice, space, bob);
    const topic = await newTopic(alice, space, 'public');
    postId = await insertPost(t, space, topic, alice.did);
    path = `/v1/spaces/${space}/posts/${postId}/comments`;

    tick();
    c.a = await comment(alice, space, postId, { body: 'A' });
    tick();
    c.b = await comment(bob, space, postId, { body: 'B' });
    tick();
    c.c = await comment(alice, space, postId, { body: 'C' });
    tick();
    c.r1 = await comment(bob, space, postId, { body: 'R1', parentCommentId: c.a.id });
    tick();
    c.r2 = await comment(alice, space, postId, { body: 'R2', parentCommentId: c.r1.id });

    for (const [voter, target] of [
      [alice, c.b],
      [bob, c.b],
      [bob, c.c],
    ] as const) {
      expectStatus(await voter.put(`/v1/spaces/${space}/comments/${target.id}/upvote`), 200);
    }
  });

  afterAll(() => t.close());

  it('orders roots by activityAt: a reply lifts its root (newest default, oldest)', async () => {
    expect(ids(await list(bob))).toEqual([c.a.id, c.c.id, c.b.id]);
    expect(ids(await list(bob, '?sort=newest'))).toEqual([c.a.id, c.c.id, c.b.id]);
    expect(ids(await list(bob, '?sort=oldest'))).toEqual([c.b.id, c.c.id, c.a.id]);
  });

  it('orders top by upvoteCount, then newest', async () => {
    expect(ids(await list(bob, '?sort=top'))).toEqual([c.b.id, c.c.id, c.a.id]);
  });

  it('lists one root’s replies by publishedAt; a reply to a reply attaches to the root', async () => {
    expect(c.r2.parentCommentId).toBe(c.a.id);
    expect(ids(await list(bob, `?parentCommentId=${c.a.id}`))).toEqual([c.r2.id, c.r1.id]);
    expect(ids(await list(bob, `?parentCommentId=${c.a.id}&sort=oldest`))).toEqual([c.r1.id, c.r2.id]);
    expect(ids(await list(bob, `?parentCommentId=${c.a.id}&sort=top`))).toEqual([c.r2.id, c.r1.id]);
  });

  it('answers the Comment shape: activityAt, replyCount, parentCommentId absent on roots, viewer', async () => {
    const page = await list(bob);
    const a = page.items.find((item) => item.id === c.a.id)!;
    expect(Object.keys(a).sort()).toEqual(
      [
        'activityAt',
        'attachments',
        'author',
        'body',
        'id',
        'postId',
        'publishedAt',
        'replyCount',
        'upvoteCount',
        'viewer',
      ].sort(),
    );
    expect(a).toEqual({
      id: c.a.id,
      postId,
      author: { did: alice.did, displayName: 'Alice A', username: 'alice-comments' },
      body: 'A',
      attachments: [],
      publishedAt: c.a.publishedAt,
      activityAt: c.r2.publishedAt,
      upvoteCount: 0,
      replyCount: 2,
      viewer: { upvoted: false },
    });
    const b = page.items.find((item) => item.id === c.b.id)!;
    expect(b.author).toEqual({ did: bob.did });
    expect(b.activityAt).toBe(b.publishedAt);
    expect(b.upvoteCount).toBe(2);
    expect(b.viewer).toEqual({ upvoted: true });
    expect(page.items.find((item) => item.id === c.c.id)!.viewer).toEqual({ upvoted: true });
    expect((await list(alice)).items.find((item) => item.id === c.c.id)!.viewer).toEqual({ upvoted: false });

    const replies = await list(bob, `?parentCommentId=${c.a.id}`);
    for (const reply of replies.items) {
      expect(reply.parentCommentId).toBe(c.a.id);
      expect(reply.replyCount).toBe(0);
      expect(reply.activityAt).toBe(reply.publishedAt);
    }
  });

  it('walks every sort with cursors, forward and back', async () => {
    for (const sort of ['newest', 'oldest', 'top']) {
      const all = ids(await list(bob, `?sort=${sort}`));
      const forward: string[] = [];
      let after: string | null = null;
      let previous: string | null | undefined = null;
      do {
        const page = await list(
          bob,
          `?sort=${sort}&limit=1${after ? `&after=${encodeURIComponent(after)}` : ''}`,
        );
        forward.push(...ids(page));
        after = page.nextCursor;
        previous = page.previousCursor;
      } while (after);
      expect(forward).toEqual(all);
      const backward = [forward[forward.length - 1]];
      while (previous) {
        const page = await list(bob, `?sort=${sort}&limit=1&before=${encodeURIComponent(previous)}`);
        backward.unshift(...ids(page));
        previous = page.previousCursor;
      }
      expect(backward).toEqual(all);
    }
  });

  it('refuses a bad sort, a bad limit and a cursor of another sort with 400', async () => {
    expectStatus(await bob.get(`${path}?sort=best`), 400);
    expectStatus(await bob.get(`${path}?limit=0`), 400);
    const page = await list(bob, '?sort=newest&limit=1');
    expectStatus(await bob.get(`${path}?sort=top&after=${encodeURIComponent(page.nextCursor!)}`), 400);
    expectStatus(await bob.get(`${path}?unknown=1`), 400);
  });

  it('lists nothing for a parentCommentId that is not a root of this post', async () => {
    for (const parent of [c.r1.id, 'comment_0000', 'comment_0190f6a8c5a87b3c9d1e2f3a4b5c6d7e', postId]) {
      expect(await list(bob, `?parentCommentId=${parent}`)).toMatchObject({ items: [], nextCursor: null });
    }
  });

  it('lets a non-member with an identity proof read a public topic’s comments', async () => {
    expect(ids(await list(carol))).toEqual([c.a.id, c.c.id, c.b.id]);
  });

  it('is 401 without Authorization', async () => {
    const request = (await import('supertest')).default;
    const response = await request(t.http).get(path);
    expectStatus(response, 401);
  });

  it('takes a credential with read:posts; without it, or revoked, is 403', async () => {
    const reader = alice.grant(app, ['read:posts']);
    expect(ids(await list(app, '', { credential: reader }))).toEqual([c.a.id, c.c.id, c.b.id]);
    expect((await list(app, '', { credential: reader })).items[1].viewer).toEqual({ upvoted: false });

    const writerOnly = alice.grant(app, ['write:comments']);
    expectStatus(await app.get(path, { credential: writerOnly }), 403);

    const revoked = alice.grant(app, ['read:posts']);
    await alice.revoke(revoked);
    expectStatus(await app.get(path, { credential: revoked }), 403);
  });

  it('is the 404 for a post the caller cannot read, another space’s post, a deleted or unknown post', async () => {
    const membersTopic = await newTopic(alice, space, 'members');
    const hidden = await insertPost(t, space, membersTopic, alice.did);
    await comment(alice, space, hidden);
    expectNotFound(await carol.get(`/v1/spaces/${space}/posts/${hidden}/comments`));
    expect((await list(bob, '')).items.length).toBe(3);
    expectStatus(await bob.get(`/v1/spaces/${space}/posts/${hidden}/comments`), 200);

    const other = (await newSpace(alice, 'Other')).id;
    await makePublic(alice, other);
    const otherPost = await insertPost(t, other, await newTopic(alice, other), alice.did);
    expectNotFound(await alice.get(`/v1/spaces/${space}/posts/${otherPost}/comments`));
    expectStatus(await alice.get(`/v1/spaces/${other}/posts/${otherPost}/comments`), 200);

    const gone = await insertPost(t, space, await newTopic(alice, space), alice.did, { deleted: true });
    expectNotFound(await alice.get(`/v1/spaces/${space}/posts/${gone}/comments`));
    expectNotFound(
      await alice.get(`/v1/spaces/${space}/posts/post_0190f6a8c5a87b3c9d1e2f3a4b5c6d7e/comments`),
    );
    expectNotFound(await alice.get(`/v1/spaces/${space}/posts/nope/comments`));
  });

  it('is the 404 on a private space for a non-member', async () => {
    const hiddenSpace = (await newSpace(alice, 'Hidden')).id;
    const hiddenPost = await insertPost(t, hiddenSpace, await newTopic(alice, hiddenSpace), alice.did);
    expectStatus(await alice.get(`/v1/spaces/${hiddenSpace}/posts/${hiddenPost}/comments`), 200);
    expectNotFound(await carol.get(`/v1/spaces/${hiddenSpace}/posts/${hiddenPost}/comments`));
  });
});
