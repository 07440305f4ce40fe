import { Actor } from '../../support/actors';
import { newGroup } from '../memberships/support';
import {
  admit,
  bootSpaces,
  comment,
  CommentBody,
  commentCountOf,
  CommentPage,
  commentRows,
  expectInvalid,
  expectNotFound,
  expectStatus,
  insertPost,
  makePublic,
  newSpace,
  newTopic,
  person,
  SpacesTestApp,
} from './support';

describe('comment writes (api-spec.md "Writes", rules 3, 5, 6, 7, 8)', () => {
  let t: SpacesTestApp;
  let owner: Actor; // owns the space (admin of everything)
  let bob: Actor; // member
  let carol: Actor; // member
  let stranger: Actor; // not a member
  let app: Actor;
  let space: string;
  let topic: string;
  let postId: string;
  let path: string;

  const tick = () => {
    t.clock.offsetMs += 1000;
  };
  const commentPath = (id: string) => `/v1/spaces/${space}/comments/${id}`;
  const roots = async (caller: Actor = bob) => {
    const response = await caller.get(path);
    expectStatus(response, 200);
    return (response.body as CommentPage).items;
  };
  const replies = async (rootId: string, caller: Actor = bob) => {
    const response = await caller.get(`${path}?parentCommentId=${rootId}`);
    expectStatus(response, 200);
    return (response.body as CommentPage).items;
  };
  const rootOf = async (id: string) => (await roots()).find((item) => item.id === id)!;

  beforeAll(async () => {
    t = await bootSpaces();
    [owner, bob, carol, stranger, app] = await Promise.all([
      person(t),
      person(t),
      person(t),
      person(t),
      person(t),
    ]);
    space = (await newSpace(owner)).id;
    await makePublic(owner, space);
    await admit(owner, space, bob);
    await admit(owner, space, carol);
    topic = await newTopic(owner, space, 'public');
    postId = await insertPost(t, space, topic, owner.did);
    path = `/v1/spaces/${space}/posts/${postId}/comments`;
  });

  afterAll(() => t.close());

  describe('POST …/comments', () => {
    it('creates a root: 201 with the listing shape minus activityAt, and counts it on the post', async () => {
      const before = await commentCountOf(t, postId);
      tick();
      const start = t.clock.now().getTime();
      const response = await bob.post(path, { body: 'Hello **there**' });
      const end = t.clock.now().getTime();
      expectStatus(response, 201);
      const created = response.body as CommentBody;
      expect(created).toEqual({
        id: expect.stringMatching(/^comment_[0-9a-f]{32}$/),
        postId,
        author: { did: bob.did },
        body: 'Hello **there**',
        attachments: [],
        publishedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        upvoteCount: 0,
        replyCount: 0,
        viewer: { upvoted: false },
      });
      const published = Date.parse(created.publishedAt);
      expect(published).toBeGreaterThanOrEqual(start);
      expect(published).toBeLessThanOrEqual(end);
      expect(await commentCountOf(t, postId)).toBe(before + 1);
      expect((await rootOf(created.id)).activityAt).toBe(created.publishedAt);
    });

    it('threads one level deep: a reply to a reply attaches to the root, lifting its activityAt', async () => {
      tick();
      const root = await comment(bob, space, postId, { body: 'root' });
      tick();
      const reply = await comment(carol, space, postId, { body: 'reply', parentCommentId: root.id });
      expect(reply.parentCommentId).toBe(root.id);
      tick();
      const nested = await comment(owner, space, postId, { body: 'nested', parentCommentId: reply.id });
      expect(nested.parentCommentId).toBe(root.id);
      expect(nested.replyCount).toBe(0);

      const listed = await rootOf(root.id);
      expect(listed.replyCount).toBe(2);
      expect(listed.activityAt).toBe(nested.publishedAt);
      expect(listed.publishedAt).toBe(root.publishedAt);
      expect((await replies(root.id)).map((item) => item.id)).toEqual([nested.id, reply.id]);
      expect((await roots()).map((item) => item.id)).not.toContain(reply.id);
    });

    it('records the space’s activity', async () => {
      tick();
      const created = await comment(carol, space, postId, { body: 'activity' });
      const rows = await t.dataSource.query('SELECT last_activity_at FROM spaces WHERE id = $1', [
        space.slice('space_'.length),
      ]);
      expect(new Date(rows[0].last_activity_at).getTime()).toBeGreaterThanOrEqual(
        Date.parse(created.publishedAt),
      );
    });

    it('refuses bad input with 400 and stores nothing', async () => {
      const rows = await commentRows(t);
      const count = await commentCountOf(t, postId);
      expectInvalid(await bob.post(path, {}), 'body');
      expectInvalid(await bob.post(path, { attachments: [] }), 'body');
      expectInvalid(await bob.post(path, { body: '   ' }), 'body');
      expectInvalid(await bob.post(path, { body: 42 }), 'body');
      expectInvalid(await bob.post(path, { body: 'x'.repeat(20_001) }), 'body');
      expectInvalid(
        await bob.post(path, { body: 'See ![img](attachment://media_0190f6a8c5a87b3c9d1e2f3a4b5c6d7e)' }),
        'body',
      );
      expectInvalid(
        await bob.post(path, { body: 'ok', attachments: ['media_0190f6a8c5a87b3c9d1e2f3a4b5c6d7e'] }),
        'attachments.0',
      );
      expectInvalid(
        await bob.post(path, { attachments: ['media_0190f6a8c5a87b3c9d1e2f3a4b5c6d7e'] }),
        'attachments.0',
      );
      expectInvalid(await bob.post(path, { body: 'ok', attachments: 'media_x' }), 'attachments');
      expectInvalid(await bob.post(path, { body: 'ok', extra: true }), 'extra');
      expectInvalid(await bob.post(path, { body: 'nul \u0000 byte' }), 'body');
      expect(await commentRows(t)).toBe(rows);
      expect(await commentCountOf(t, postId)).toBe(count);
      // The refused writes did not spend their jti: a fresh write still goes through.
      await comment(bob, space, postId, { body: 'x'.repeat(20_000) });
    });

    it('is 403 for a non-member of a public space; 404 for another space’s post or an unknown parent', async () => {
      const rows = await commentRows(t);
      expectStatus(await stranger.post(path, { body: 'hi' }), 403);
      const other = (await newSpace(owner, 'Other')).id;
      await makePublic(owner, other);
      const otherPost = await insertPost(t, other, await newTopic(owner, other), owner.did);
      expectNotFound(await owner.post(`/v1/spaces/${space}/posts/${otherPost}/comments`, { body: 'hi' }));
      expectNotFound(await bob.post(`/v1/spaces/${space}/posts/post_nope/comments`, { body: 'hi' }));
      for (const parentCommentId of ['comment_0190f6a8c5a87b3c9d1e2f3a4b5c6d7e', 'nope']) {
        expectNotFound(await bob.post(path, { body: 'hi', parentCommentId }));
      }
      const otherComment = await comment(owner, other, otherPost);
      expectNotFound(await owner.post(path, { body: 'hi', parentCommentId: otherComment.id }));
      expect(await commentRows(t)).toBe(rows + 1);
    });

    it('is the 404 on a post the writer cannot read, and on a private space for a non-member', async () => {
      const group = await newGroup(owner, space, { name: 'Inner' });
      const groupTopic = await newTopic(owner, space, { groups: [group.id] });
      const restricted = await insertPost(t, space, groupTopic, owner.did);
      expectNotFound(await bob.post(`/v1/spaces/${space}/posts/${restricted}/comments`, { body: 'hi' }));
      await comment(owner, space, restricted);

      const hidden = (await newSpace(owner, 'Hidden')).id;
      const hiddenPost = await insertPost(t, hidden, await newTopic(owner, hidden), owner.did);
      expectNotFound(
        await stranger.post(`/v1/spaces/${hidden}/posts/${hiddenPost}/comments`, { body: 'hi' }),
      );
      await comment(owner, hidden, hiddenPost);
    });

    it('takes a credential with write:comments plus read:posts; one without either, or revoked, is 403', async () => {
      const both = bob.grant(app, ['read:posts', 'write:comments']);
      const response = await app.post(path, { body: 'via app' }, { credential: both });
      expectStatus(response, 201);
      expect((response.body as CommentBody).author).toEqual({ did: bob.did });
      const rows = await commentRows(t);
      expectStatus(
        await app.post(path, { body: 'x' }, { credential: bob.grant(app, ['write:comments']) }),
        403,
      );
      expectStatus(await app.post(path, { body: 'x' }, { credential: bob.grant(app, ['read:posts']) }), 403);
      const revoked = bob.grant(app, ['read:posts', 'write:comments']);
      await bob.revoke(revoked);
      expectStatus(await app.post(path, { body: 'x' }, { credential: revoked }), 403);
      expect(await commentRows(t)).toBe(rows);
    });
  });

  describe('PATCH …/comments/{commentId}', () => {
    it('replaces the author’s body and answers the updated comment', async () => {
      tick();
      const created = await comment(bob, space, postId, { body: 'first' });
      tick();
      const response = await bob.patch(commentPath(created.id), { body: 'second' });
      expectStatus(response, 200);
      expect(response.body).toEqual({ ...created, body: 'second', activityAt: created.publishedAt });
      expect((await rootOf(created.id)).body).toBe('second');
      expectStatus(await bob.patch(commentPath(created.id), { body: 'third', attachments: [] }), 200);
      expect((await rootOf(created.id)).body).toBe('third');
    });

    it('is 400 naming no field, clearing everything, or with attachments, and changes nothing', async () => {
      const created = await comment(bob, space, postId, { body: 'keep' });
      expectInvalid(await bob.patch(commentPath(created.id), {}));
      expectInvalid(await bob.patch(commentPath(created.id), { attachments: null }), 'attachments');
      expectInvalid(await bob.patch(commentPath(created.id), { body: null, attachments: [] }), 'body');
      expectInvalid(await bob.patch(commentPath(created.id), { body: 'a attachment://media_x' }), 'body');
      expectInvalid(
        await bob.patch(commentPath(created.id), { attachments: ['media_0190f6a8c5a87b3c9d1e2f3a4b5c6d7e'] }),
        'attachments.0',
      );
      expectInvalid(await bob.patch(commentPath(created.id), { parentCommentId: created.id }));
      expect((await rootOf(created.id)).body).toBe('keep');
    });

    it('is 403 for anyone but the author, the space owner included', async () => {
      const created = await comment(bob, space, postId, { body: 'mine' });
      expectStatus(await owner.patch(commentPath(created.id), { body: 'admin edit' }), 403);
      expectStatus(await carol.patch(commentPath(created.id), { body: 'edit' }), 403);
      expectStatus(await stranger.patch(commentPath(created.id), { body: 'edit' }), 403);
      expect((await rootOf(created.id)).body).toBe('mine');
    });

    it('is the 404 for another space’s comment, an unknown or malformed id', async () => {
      const other = (await newSpace(owner, 'Elsewhere')).id;
      await makePublic(owner, other);
      const otherPost = await insertPost(t, other, await newTopic(owner, other), owner.did);
      const elsewhere = await comment(owner, other, otherPost);
      expectNotFound(await owner.patch(commentPath(elsewhere.id), { body: 'x' }));
      expectNotFound(await owner.delete(commentPath(elsewhere.id)));
      expectNotFound(await owner.put(`${commentPath(elsewhere.id)}/upvote`));
      expectNotFound(
        await owner.patch(commentPath('comment_0190f6a8c5a87b3c9d1e2f3a4b5c6d7e'), { body: 'x' }),
      );
      expectNotFound(await owner.patch(commentPath(otherPost), { body: 'x' }));
    });
  });

  describe('DELETE …/comments/{commentId}', () => {
    it('is 403 for anyone but the author, the owner included', async () => {
      const created = await comment(bob, space, postId, { body: 'stay' });
      expectStatus(await owner.delete(commentPath(created.id)), 403);
      expectStatus(await carol.delete(commentPath(created.id)), 403);
      expect((await rootOf(created.id)).body).toBe('stay');
    });

    it('leaves a tombstone that keeps its replies; counts drop; it cannot be edited, upvoted or deleted again', async () => {
      tick();
      const root = await comment(bob, space, postId, { body: 'root' });
      tick();
      const reply = await comment(carol, space, postId, { body: 'reply', parentCommentId: root.id });
      tick();
      const doomed = await comment(carol, space, postId, { body: 'doomed', parentCommentId: root.id });
      const count = await commentCountOf(t, postId);

      const deletedReply = await carol.delete(commentPath(doomed.id));
      expectStatus(deletedReply, 200);
      expect(deletedReply.body).toEqual({ deleted: true });
      expect(await commentCountOf(t, postId)).toBe(count - 1);
      expect((await rootOf(root.id)).replyCount).toBe(1);

      expect((await bob.delete(commentPath(root.id))).body).toEqual({ deleted: true });
      expect(await commentCountOf(t, postId)).toBe(count - 2);
      const tombstone = await rootOf(root.id);
      expect(tombstone).toMatchObject({
        id: root.id,
        body: null,
        author: { did: bob.did },
        attachments: [],
        replyCount: 1,
      });
      expect((await replies(root.id)).map((item) => item.id)).toEqual([doomed.id, reply.id]);
      expect((await replies(root.id))[1]).toMatchObject({ body: 'reply', author: { did: carol.did } });

      expectNotFound(await bob.patch(commentPath(root.id), { body: 'back' }));
      expectNotFound(await bob.delete(commentPath(root.id)));
      expectNotFound(await carol.put(`${commentPath(root.id)}/upvote`));
      expectNotFound(await carol.delete(`${commentPath(root.id)}/upvote`));
      expectNotFound(await carol.post(path, { body: 'late', parentCommentId: root.id }));
      expect(await commentCountOf(t, postId)).toBe(count - 2);
    });

    // Tombstones answered `author: null`; api-spec.md "Comment" gives every comment the Author
    // shape, only a post's author may be null (docs/decisions/0101-comment-tombstone-author.md).
    it('keeps the author of a deleted root and reply in the Author shape, body null, for members and strangers', async () => {
      const dora = await person(t);
      expectStatus(await dora.signUp('dora-tombstones', 'Dora D'), 201);
      await admit(owner, space, dora);
      tick();
      const root = await comment(dora, space, postId, { body: 'gone soon' });
      tick();
      const reply = await comment(dora, space, postId, { body: 'me too', parentCommentId: root.id });
      tick();
      await comment(bob, space, postId, { body: 'still here', parentCommentId: root.id });
      expectStatus(await dora.delete(commentPath(reply.id)), 200);
      expectStatus(await dora.delete(commentPath(root.id)), 200);

      const author = { did: dora.did, displayName: 'Dora D', username: 'dora-tombstones' };
      const tombstoneOf = (created: CommentBody, replyCount: number) => ({
        id: created.id,
        postId,
        ...(created.parentCommentId ? { parentCommentId: created.parentCommentId } : {}),
        author,
        body: null,
        attachments: [],
        publishedAt: created.publishedAt,
        activityAt: expect.any(String),
        upvoteCount: 0,
        replyCount,
        viewer: { upvoted: false },
      });
      for (const reader of [bob, stranger]) {
        expect((await roots(reader)).find((item) => item.id === root.id)).toEqual(tombstoneOf(root, 1));
        expect((await replies(root.id, reader)).find((item) => item.id === reply.id)).toEqual(
          tombstoneOf(reply, 0),
        );
      }
    });
  });

  describe('PUT, DELETE …/comments/{commentId}/upvote', () => {
    it('is idempotent: PUT always upvoted true, DELETE always false, never negative', async () => {
      const target = await comment(bob, space, postId, { body: 'vote me' });
      const upvote = `${commentPath(target.id)}/upvote`;
      const withdrawn = await carol.delete(upvote);
      expectStatus(withdrawn, 200);
      expect(withdrawn.body).toEqual({ upvoted: false, upvoteCount: 0 });
      for (let i = 0; i < 2; i++) {
        const response = await carol.put(upvote);
        expectStatus(response, 200);
        expect(response.body).toEqual({ upvoted: true, upvoteCount: 1 });
      }
      expect((await owner.put(upvote)).body).toEqual({ upvoted: true, upvoteCount: 2 });
      expect((await roots(carol)).find((item) => item.id === target.id)).toMatchObject({
        upvoteCount: 2,
        viewer: { upvoted: true },
      });
      expect((await roots(bob)).find((item) => item.id === target.id)!.viewer).toEqual({ upvoted: false });
      for (let i = 0; i < 2; i++) {
        expect((await carol.delete(upvote)).body).toEqual({ upvoted: false, upvoteCount: 1 });
      }
      expect((await roots(carol)).find((item) => item.id === target.id)!.viewer).toEqual({ upvoted: false });
    });

    it('is 403 for a non-member, or a credential without write:upvotes', async () => {
      const target = await comment(bob, space, postId, { body: 'no votes' });
      const upvote = `${commentPath(target.id)}/upvote`;
      expectStatus(await stranger.put(upvote), 403);
      expectStatus(
        await app.put(upvote, {}, { credential: carol.grant(app, ['read:posts', 'write:comments']) }),
        403,
      );
      const ok = await app.put(upvote, {}, { credential: carol.grant(app, ['read:posts', 'write:upvotes']) });
      expect(ok.body).toEqual({ upvoted: true, upvoteCount: 1 });
    });
  });

  it('answers a replayed write 409; a refused write leaves its jti usable', async () => {
    const jti = 'comment-replay-jti-0001';
    const rows = await commentRows(t);
    expectStatus(await bob.post(path, {}, { jti }), 400);
    expectStatus(await bob.post(path, { body: 'once' }, { jti }), 201);
    expectStatus(await bob.post(path, { body: 'once' }, { jti }), 409);
    expect(await commentRows(t)).toBe(rows + 1);
  });

  it('is 401 without Authorization on every write', async () => {
    const request = (await import('supertest')).default;
    const target = await comment(bob, space, postId, { body: 'anon' });
    expectStatus(await request(t.http).post(path).send({ body: 'x' }), 401);
    expectStatus(await request(t.http).patch(commentPath(target.id)).send({ body: 'x' }), 401);
    expectStatus(await request(t.http).delete(commentPath(target.id)), 401);
    expectStatus(await request(t.http).put(`${commentPath(target.id)}/upvote`), 401);
  });
});
