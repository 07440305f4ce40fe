import { Actor } from '../../support/actors';
import {
  admit,
  bootSpaces,
  comment,
  expectStatus,
  insertPost,
  makePublic,
  newSpace,
  newTopic,
  person,
  SpacesTestApp,
} from '../comments/support';

/**
 * After-commit handlers that query (the comment and upvote notifications) run once the write's
 * connection is back in the pool. Run while it was still held, concurrent writes each held one
 * connection and waited for another: with as many writes as connections, every one hung.
 */
describe('after-commit work under concurrent writes on a small pool', () => {
  let t: SpacesTestApp;

  beforeAll(async () => {
    t = await bootSpaces({ env: { DATABASE_POOL_SIZE: '2', DATABASE_ACQUIRE_TIMEOUT_MS: '20000' } });
  });

  afterAll(() => t?.close());

  it('answers every concurrent comment and upvote, and tells the author of each', async () => {
    const owner = await person(t);
    const space = (await newSpace(owner)).id;
    await makePublic(owner, space);
    const topic = await newTopic(owner, space, 'public');
    const postId = await insertPost(t, space, topic, owner.did);
    const members: Actor[] = await Promise.all(Array.from({ length: 6 }, () => person(t)));
    for (const member of members) await admit(owner, space, member);

    const started = Date.now();
    const comments = await Promise.all(
      members.map((member) => comment(member, space, postId, { body: 'hi' })),
    );
    const upvotes = await Promise.all(
      members.map((member) => member.put(`/v1/spaces/${space}/posts/${postId}/upvote`)),
    );
    for (const response of upvotes) expectStatus(response, 200);
    expect(comments).toHaveLength(6);
    // Far below the acquire timeout: nothing waited for a connection its own request held.
    expect(Date.now() - started).toBeLessThan(10_000);

    const notifications = await owner.get('/notifications');
    expectStatus(notifications, 200);
    const kinds = (notifications.body as { items: { type: string }[] }).items.map((item) => item.type);
    expect(kinds).toEqual(
      expect.arrayContaining(['notify.post.comment.added', 'notify.post.reaction.added']),
    );
  });
});
