import { Actor } from '../../support/actors';
import { refuseWrites } from '../../support/faults';
import {
  admit,
  bootSpaces,
  comment,
  commentCountOf,
  CommentPage,
  commentRows,
  expectStatus,
  insertPost,
  makePublic,
  newSpace,
  newTopic,
  person,
  SpacesTestApp,
} from './support';

/**
 * A comment write is one transaction with the post's `commentCount` (kept by the posts module on
 * `CommentAdded` / `CommentRemoved`): when the counter fails, nothing of the write remains and the
 * request's `jti` stays usable. The fault is real: a trigger makes PostgreSQL refuse the update.
 */
describe('comment writes are atomic (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let bob: Actor;
  let space: string;
  let postId: string;
  let path: string;

  const breakCounter = () => refuseWrites(t.dataSource, 'posts', 'UPDATE OF comment_count');
  const replyCountOf = async (rootId: string) => {
    const response = await bob.get(path);
    expectStatus(response, 200);
    return (response.body as CommentPage).items.find((item) => item.id === rootId)!.replyCount;
  };

  beforeAll(async () => {
    t = await bootSpaces();
    [owner, bob] = await Promise.all([person(t), person(t)]);
    space = (await newSpace(owner)).id;
    await makePublic(owner, space);
    await admit(owner, space, bob);
    const topic = await newTopic(owner, space, 'public');
    postId = await insertPost(t, space, topic, owner.did);
    path = `/v1/spaces/${space}/posts/${postId}/comments`;
  });

  afterAll(() => t.close());

  it('a reply whose post counter fails leaves no comment, no reply count, and its jti unspent', async () => {
    const root = await comment(bob, space, postId, { body: 'root' });
    const rows = await commentRows(t);
    const count = await commentCountOf(t, postId);
    const jti = 'atomic-comment-jti-0001';
    const repairCounter = await breakCounter();
    try {
      const failed = await bob.post(path, { body: 'reply', parentCommentId: root.id }, { jti });
      expectStatus(failed, 500);
      expect(failed.body).toEqual({ code: 'E_INTERNAL', message: 'Internal error' });
    } finally {
      await repairCounter();
    }
    expect(await commentRows(t)).toBe(rows);
    expect(await commentCountOf(t, postId)).toBe(count);
    expect(await replyCountOf(root.id)).toBe(0);
    expectStatus(await bob.post(path, { body: 'reply', parentCommentId: root.id }, { jti }), 201);
    expect(await commentCountOf(t, postId)).toBe(count + 1);
    expect(await replyCountOf(root.id)).toBe(1);
  });

  it('a delete whose post counter fails leaves the comment live and counted', async () => {
    const target = await comment(bob, space, postId, { body: 'keep me' });
    const count = await commentCountOf(t, postId);
    const repairCounter = await breakCounter();
    try {
      expectStatus(await bob.delete(`/v1/spaces/${space}/comments/${target.id}`), 500);
    } finally {
      await repairCounter();
    }
    expect(await commentCountOf(t, postId)).toBe(count);
    const listed = (await bob.get(path)).body as CommentPage;
    expect(listed.items.find((item) => item.id === target.id)?.body).toBe('keep me');
  });

  it('a 500 after the comment committed keeps its jti spent: a retry is 409, not a second comment', async () => {
    const rows = await commentRows(t);
    const jti = 'atomic-comment-jti-0002';
    // Authors are read after the commit: with their table gone, the answer fails after the write.
    await t.dataSource.query('ALTER TABLE users RENAME TO users_away');
    try {
      expectStatus(await bob.post(path, { body: 'committed' }, { jti }), 500);
    } finally {
      await t.dataSource.query('ALTER TABLE users_away RENAME TO users');
    }
    expect(await commentRows(t)).toBe(rows + 1);
    expectStatus(await bob.post(path, { body: 'committed' }, { jti }), 409);
    expect(await commentRows(t)).toBe(rows + 1);
  });
});
