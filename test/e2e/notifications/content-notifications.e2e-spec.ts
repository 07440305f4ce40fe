import { statementsDuring } from '../../support/statements';
import { parseEntityId } from '../../../src/common/ids/entity-id';
import { PostAnnouncementsSubscriber as PostAnnouncements } from '../../../src/notifications/events/post-announcements.subscriber';
import { Actor } from '../../support/actors';
import { addToGroup, newGroup, promote } from '../memberships/support';
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
import { expectNotFound } from '../spaces/support';
import { followJoins, settleJoinsBeforeNotificationReads } from './join-announcements';

interface Person {
  did: string;
  displayName: string | null;
}

interface Item {
  id: string;
  type: string;
  readState: string;
  scope: { type: string; preview: { id: string; title: string; createdBy: Person; createdAt: string } };
  aggregation: {
    type: string;
    items: (Person & { id?: string; title?: string })[];
    totalCount: number;
  } | null;
}

/**
 * Content notifications (design.md §14) end to end, with real identities: who is told of a post,
 * a pin, a comment, a reply and upvotes; nobody of their own act; only readers of the post, now and
 * later; post announcements run on the job queue, idempotent when retried; names, not DIDs.
 */
describe('content notifications (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Actor; // "Olive Owner"
  let admin: Actor; // handle only
  let member: Actor; // "Mia Member"
  let other: Actor; // no account
  let outsider: Actor;
  let space: string;
  let publicTopic: string;

  const tick = () => {
    t.clock.offsetMs += 1000;
  };

  /** The caller's unread notifications, most recent first. */
  const unread = async (caller: Actor): Promise<Item[]> => {
    const response = await caller.get('/notifications');
    expectStatus(response, 200);
    return (response.body.items as Item[]).filter((item) => item.readState === 'unread');
  };
  const kinds = async (caller: Actor) => (await unread(caller)).map((item) => item.type);
  const readAll = async (...callers: Actor[]) => {
    for (const caller of callers) expectStatus(await caller.post('/notifications/mark-all-read', {}), 200);
  };
  /**
   * The kinds of the unread notifications written for `recipient`, whether or not the listing
   * shows them (it hides what the recipient cannot read, so only this tells "never written").
   */
  const written = async (recipient: Actor): Promise<string[]> =>
    (
      (await t.dataSource.query(
        `SELECT type FROM notifications WHERE recipient_did = $1 AND read_state = 'unread'`,
        [recipient.did],
      )) as { type: string }[]
    ).map((row) => row.type);

  /** Waits until the post's announcement job has finished (it runs after the POST answered). */
  const announced = async (postId: string) => {
    const key = `notify.post.created:${parseEntityId('post', postId)}`;
    for (let attempt = 0; attempt < 500; attempt++) {
      const rows = await t.dataSource.query('SELECT done_at FROM notification_fanouts WHERE key = $1', [key]);
      if (rows[0]?.done_at) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`${postId} was never announced`);
  };

  const post = async (author: Actor, body: Record<string, unknown>, spaceId = space) => {
    const created = await newPost(author, spaceId, body);
    await announced(created.id);
    return created.id;
  };

  let restoreSend: () => void;

  beforeAll(async () => {
    t = await bootSpaces();
    // Joins are told by a background job: reads of notifications wait until every join is told.
    restoreSend = settleJoinsBeforeNotificationReads(followJoins(t.app, t.dataSource));
    [owner, admin, member, other, outsider] = await Promise.all([
      person(t),
      person(t),
      person(t),
      person(t),
      person(t),
    ]);
    expectStatus(await owner.signUp('olive', 'Olive Owner'), 201);
    expectStatus(await admin.signUp('adam-admin'), 201);
    expectStatus(await member.signUp('mia', 'Mia Member'), 201);
    space = (await newSpace(owner, 'Content')).id;
    await makePublic(owner, space);
    for (const someone of [admin, member, other]) await admit(owner, space, someone);
    await promote(owner, space, admin);
    publicTopic = await newTopic(owner, space, 'Open', 'public');
  });

  afterAll(async () => {
    restoreSend();
    await t.close();
  });

  beforeEach(async () => {
    tick();
    await readAll(owner, admin, member, other, outsider);
  });

  describe('notify.post.created', () => {
    it('announces a post to the other active members who read it, not its author or outsiders', async () => {
      const id = await post(member, { topic: publicTopic, title: 'Kiln day', body: 'Firing on Sunday' });
      for (const recipient of [owner, admin, other]) {
        const [item] = await unread(recipient);
        expect(item).toMatchObject({
          type: 'notify.post.created',
          scope: {
            type: 'post',
            preview: {
              id,
              title: 'Mia Member posted: Kiln day',
              createdBy: { did: member.did, displayName: 'Mia Member' },
            },
          },
          aggregation: null,
        });
      }
      expect(await kinds(member)).toEqual([]);
      expect(await kinds(outsider)).toEqual([]);
    });

    it('groups unread announcements of one space by post (aggregation post)', async () => {
      const first = await post(member, { topic: publicTopic, body: 'One' });
      tick();
      const second = await post(admin, { topic: publicTopic, body: 'Two' });
      const [item] = await unread(owner);
      expect(item.scope.preview).toMatchObject({ id: second, title: 'adam-admin posted: Two' });
      expect(item.aggregation).toEqual({
        type: 'post',
        totalCount: 2,
        items: [
          { id: second, title: 'Two', createdBy: { did: admin.did, displayName: 'adam-admin' } },
          { id: first, title: 'One', createdBy: { did: member.did, displayName: 'Mia Member' } },
        ],
      });
      // The member is told only of the admin's post, the admin only of the member's.
      expect((await unread(member))[0].aggregation).toBeNull();
      expect((await unread(admin))[0].scope.preview.id).toBe(first);
    });

    it('keeps the 5 most recent posts of a group and counts them all', async () => {
      const ids: string[] = [];
      for (let n = 0; n < 7; n++) {
        tick();
        ids.push(await post(member, { topic: publicTopic, body: `Post ${n}` }));
      }
      const [item] = await unread(owner);
      expect(item.aggregation!.totalCount).toBe(7);
      expect(item.aggregation!.items.map((entry) => entry.id)).toEqual(ids.slice(2).reverse());
    });

    it('tells only who can read the post: a group topic reaches its group and the admins', async () => {
      const group = await newGroup(owner, space, { name: 'Glazers' });
      await addToGroup(owner, space, group.id, other);
      const groupTopic = await newTopic(owner, space, 'Glaze lab', { groups: [group.id] });
      const id = await post(other, { topic: groupTopic, body: 'Secret glaze' });
      expect(await kinds(member)).toEqual([]);
      expect((await unread(owner))[0].scope.preview.id).toBe(id);
      expect((await unread(admin))[0].scope.preview.id).toBe(id);
      expect(await kinds(other)).toEqual([]);
    });

    it('stops showing once the post moves to a topic the recipient cannot read, or is deleted', async () => {
      const group = await newGroup(owner, space, { name: 'Movers' });
      const groupTopic = await newTopic(owner, space, 'Moved', { groups: [group.id] });
      const id = await post(admin, { topic: publicTopic, body: 'Moving soon' });
      expect(await kinds(member)).toEqual(['notify.post.created']);
      const unreadBefore = (await member.get('/notifications/status')).body.unreadCount;
      expectStatus(await admin.patch(`/v1/spaces/${space}/posts/${id}`, { topic: groupTopic }), 200);
      expect(await kinds(member)).toEqual([]);
      expect((await member.get('/notifications/status')).body.unreadCount).toBe(unreadBefore - 1);
      expect(await kinds(owner)).toEqual(['notify.post.created']);
      expectStatus(await admin.patch(`/v1/spaces/${space}/posts/${id}`, { topic: publicTopic }), 200);
      expect(await kinds(member)).toEqual(['notify.post.created']);
      expectStatus(await admin.delete(`/v1/spaces/${space}/posts/${id}`), 200);
      expect(await kinds(member)).toEqual([]);
    });

    it('attack (0115-notification-titles-read-now): an aggregated announcement stops naming posts deleted or moved where the recipient cannot read them', async () => {
      const group = await newGroup(owner, space, { name: 'Hidden' });
      const groupTopic = await newTopic(owner, space, 'Hidden room', { groups: [group.id] });
      const moved = await post(admin, { topic: publicTopic, title: 'Soon secret', body: 'one' });
      tick();
      const deleted = await post(admin, { topic: publicTopic, title: 'Soon gone', body: 'two' });
      tick();
      const kept = await post(admin, { topic: publicTopic, title: 'Still here', body: 'three' });
      // (The group may hold an earlier post deleted since: unread, it was never marked read.)
      const before = (await unread(member))[0].aggregation!;
      expect(before.items.map((entry) => entry.id)).toEqual([kept, deleted, moved]);

      expectStatus(await admin.patch(`/v1/spaces/${space}/posts/${moved}`, { topic: groupTopic }), 200);
      expectStatus(await admin.delete(`/v1/spaces/${space}/posts/${deleted}`), 200);
      let listing = await member.get('/notifications'); // replaced below, counted
      const statements = await statementsDuring(async () => {
        listing = await member.get('/notifications');
      });
      expect(listing.text).not.toContain('Soon secret');
      expect(listing.text).not.toContain('Soon gone');
      const [item] = (listing.body.items as Item[]).filter((entry) => entry.readState === 'unread');
      const adminPerson = { did: admin.did, displayName: 'adam-admin' };
      // The count is of the posts announced; only the names follow what the recipient reads now.
      expect(item.aggregation).toEqual({
        type: 'post',
        totalCount: before.totalCount,
        items: [{ id: kept, title: 'Still here', createdBy: adminPerson }],
      });
      // One statement asks the posts module about every post the page names (no N+1).
      expect(statements.filter((statement) => /\bposts\b/.test(statement))).toHaveLength(1);
      // mark-read answers the same record.
      const read = await member.post(`/notifications/${item.id}/mark-read`);
      expectStatus(read, 200);
      expect(read.body.aggregation).toEqual(item.aggregation);
      // The owner reads the group's topic: the moved post is still named there.
      const [ownerItem] = await unread(owner);
      expect(ownerItem.aggregation!.items.map((entry) => entry.id)).toEqual([kept, moved]);
      // Moved back where the member reads it, its title shows again.
      expectStatus(await admin.patch(`/v1/spaces/${space}/posts/${moved}`, { topic: publicTopic }), 200);
      const again = (await member.get('/notifications')).body.items as Item[];
      expect(
        again.find((entry) => entry.id === item.id)!.aggregation!.items.map((entry) => entry.title),
      ).toEqual(['Still here', 'Soon secret']);
    });

    it('is idempotent when the job runs again, even after the recipient read it', async () => {
      const id = await post(member, { topic: publicTopic, body: 'Once only' });
      expect(await kinds(owner)).toEqual(['notify.post.created']);
      await readAll(owner);
      const rows = async () =>
        Number((await t.dataSource.query('SELECT count(*)::int AS n FROM notifications'))[0].n);
      const before = await rows();
      await t.app.get(PostAnnouncements).announce(parseEntityId('post', id)!, t.clock.now());
      expect(await rows()).toBe(before);
      expect(await kinds(owner)).toEqual([]);
    });

    it('a retry resumes after the last recipient written', async () => {
      const id = await post(member, { topic: publicTopic, body: 'Half way' });
      const uuid = parseEntityId('post', id)!;
      const recipients = [owner.did, admin.did, other.did].sort();
      // As if the first attempt wrote the first recipient and failed before the rest.
      await t.dataSource.query(`DELETE FROM notifications WHERE post_id = $1 AND recipient_did <> $2`, [
        uuid,
        recipients[0],
      ]);
      await t.dataSource.query(
        `UPDATE notification_fanouts SET after_did = $2, done_at = NULL WHERE key = $1`,
        [`notify.post.created:${uuid}`, recipients[0]],
      );
      await t.app.get(PostAnnouncements).announce(uuid, t.clock.now());
      const told: { recipient_did: string }[] = await t.dataSource.query(
        'SELECT recipient_did FROM notifications WHERE post_id = $1 ORDER BY recipient_did',
        [uuid],
      );
      expect(told.map((row) => row.recipient_did)).toEqual(recipients);
    });
  });

  describe('notify.post.pinned', () => {
    it('reaches the other admins only', async () => {
      const id = await post(member, { topic: publicTopic, title: 'Pin me', body: 'x' });
      await readAll(owner, admin, other);
      expectStatus(await admin.put(`/spaces/${space}/posts/${id}/pin`), 200);
      const [item] = await unread(owner);
      expect(item).toMatchObject({
        type: 'notify.post.pinned',
        scope: {
          type: 'post',
          preview: { id, title: 'adam-admin pinned a post: Pin me', createdBy: { did: admin.did } },
        },
      });
      expect(await kinds(admin)).toEqual([]);
      expect(await kinds(member)).toEqual([]);
      expect(await kinds(other)).toEqual([]);
      // Pinning again, or unpinning, is no activity.
      await readAll(owner);
      expectStatus(await owner.put(`/spaces/${space}/posts/${id}/pin`), 200);
      expectStatus(await owner.delete(`/spaces/${space}/posts/${id}/pin`), 200);
      expect(await kinds(owner)).toEqual([]);
    });
  });

  describe('comments and upvotes', () => {
    let postId: string;
    let rootId: string;

    beforeAll(async () => {
      postId = await post(member, { topic: publicTopic, title: 'Bowls', body: 'Thrown today' });
    });

    it('notify.post.comment.added: the post author; on a reply also the root comment’s author', async () => {
      const root = await owner.post(`/v1/spaces/${space}/posts/${postId}/comments`, { body: 'Lovely' });
      expectStatus(root, 201);
      rootId = root.body.id;
      const [item] = await unread(member);
      expect(item).toMatchObject({
        type: 'notify.post.comment.added',
        scope: {
          type: 'comment',
          preview: {
            id: rootId,
            title: 'Olive Owner commented on your post: Bowls',
            createdBy: { did: owner.did, displayName: 'Olive Owner' },
          },
        },
      });
      expect(await kinds(owner)).toEqual([]);
      await readAll(member);

      tick();
      const reply = await other.post(`/v1/spaces/${space}/posts/${postId}/comments`, {
        body: 'Agreed',
        parentCommentId: rootId,
      });
      expectStatus(reply, 201);
      const [toOwner] = await unread(owner);
      expect(toOwner).toMatchObject({
        type: 'notify.post.comment.added',
        scope: { preview: { id: reply.body.id, title: `${other.did} replied to your comment: Bowls` } },
      });
      expect(toOwner.scope.preview.createdBy).toEqual({ did: other.did, displayName: null });
      expect((await unread(member))[0].scope.preview.title).toBe(
        `${other.did} commented on your post: Bowls`,
      );
      expect(await kinds(admin)).toEqual([]);
      expect(await kinds(other)).toEqual([]);
    });

    it('groups the people who commented on one post (aggregation identity); one’s own comment tells no one', async () => {
      expectStatus(
        await member.post(`/v1/spaces/${space}/posts/${postId}/comments`, { body: 'Thanks' }),
        201,
      );
      expect(await kinds(member)).toEqual([]);
      expectStatus(await admin.post(`/v1/spaces/${space}/posts/${postId}/comments`, { body: 'Nice' }), 201);
      tick();
      expectStatus(await owner.post(`/v1/spaces/${space}/posts/${postId}/comments`, { body: 'Again' }), 201);
      const [item] = await unread(member);
      expect(item.aggregation).toEqual({
        type: 'identity',
        totalCount: 2,
        items: [
          { did: owner.did, displayName: 'Olive Owner' },
          { did: admin.did, displayName: 'adam-admin' },
        ],
      });
    });

    it('notify.post.reaction.added: the post author; withdrawing does not un-notify; one’s own upvote tells no one', async () => {
      expectStatus(await member.put(`/v1/spaces/${space}/posts/${postId}/upvote`), 200);
      expect(await kinds(member)).toEqual([]);
      expectStatus(await owner.put(`/v1/spaces/${space}/posts/${postId}/upvote`), 200);
      tick();
      expectStatus(await admin.put(`/v1/spaces/${space}/posts/${postId}/upvote`), 200);
      expectStatus(await admin.delete(`/v1/spaces/${space}/posts/${postId}/upvote`), 200);
      const [item] = await unread(member);
      expect(item).toMatchObject({
        type: 'notify.post.reaction.added',
        scope: { type: 'post', preview: { id: postId, title: 'adam-admin upvoted your post: Bowls' } },
        aggregation: { type: 'identity', totalCount: 2 },
      });
      expect(await kinds(owner)).toEqual([]);
    });

    it('one’s own comment or upvote costs no notification statement; a reply under another’s comment still tells', async () => {
      const notifying = (statements: string[]) =>
        statements.filter((statement) =>
          /\b(active_space_members|live_posts|notifications)\b/.test(statement),
        );
      const own = await statementsDuring(async () => {
        expectStatus(
          await member.post(`/v1/spaces/${space}/posts/${postId}/comments`, { body: 'Mine' }),
          201,
        );
        expectStatus(await member.put(`/v1/spaces/${space}/posts/${postId}/upvote`), 200);
      });
      expect(notifying(own)).toEqual([]);
      const theirs = await statementsDuring(async () => {
        expectStatus(
          await other.post(`/v1/spaces/${space}/posts/${postId}/comments`, { body: 'Yours' }),
          201,
        );
      });
      expect(notifying(theirs)).not.toEqual([]);
      // The post's author replying under the owner's root comment still tells the owner.
      await readAll(owner);
      tick();
      const reply = await member.post(`/v1/spaces/${space}/posts/${postId}/comments`, {
        body: 'Thank you',
        parentCommentId: rootId,
      });
      expectStatus(reply, 201);
      const [toOwner] = await unread(owner);
      expect(toOwner.scope.preview).toMatchObject({
        id: reply.body.id,
        title: expect.stringMatching(/replied to your comment: Bowls$/),
      });
    });

    it('notify.comment.reaction.added: the comment author only', async () => {
      expectStatus(await member.put(`/v1/spaces/${space}/comments/${rootId}/upvote`), 200);
      const [item] = await unread(owner);
      expect(item).toMatchObject({
        type: 'notify.comment.reaction.added',
        scope: {
          type: 'comment',
          preview: {
            id: rootId,
            title: 'Mia Member upvoted your comment: Bowls',
            createdBy: { did: member.did },
          },
        },
      });
      expect(await kinds(member)).toEqual([]);
      expect(await kinds(admin)).toEqual([]);
      expectStatus(await owner.put(`/v1/spaces/${space}/comments/${rootId}/upvote`), 200);
      expect((await unread(owner)).length).toBe(1);
    });

    it('two people upvoting one comment: one identity group with both; another comment is another group', async () => {
      const comment = await member.post(`/v1/spaces/${space}/posts/${postId}/comments`, { body: 'Glaze?' });
      expectStatus(comment, 201);
      const commentId = comment.body.id as string;
      expectStatus(await owner.put(`/v1/spaces/${space}/comments/${commentId}/upvote`), 200);
      tick();
      expectStatus(await admin.put(`/v1/spaces/${space}/comments/${commentId}/upvote`), 200);
      const items = await unread(member);
      expect(items.map((item) => item.type)).toEqual(['notify.comment.reaction.added']);
      expect(items[0].scope).toMatchObject({
        type: 'comment',
        preview: {
          id: commentId,
          title: 'adam-admin upvoted your comment: Bowls',
          createdBy: { did: admin.did, displayName: 'adam-admin' },
        },
      });
      expect(items[0].aggregation).toEqual({
        type: 'identity',
        totalCount: 2,
        items: [
          { did: admin.did, displayName: 'adam-admin' },
          { did: owner.did, displayName: 'Olive Owner' },
        ],
      });
      // An upvote of another of the member's comments starts its own group.
      const second = await member.post(`/v1/spaces/${space}/posts/${postId}/comments`, { body: 'Ash?' });
      expectStatus(second, 201);
      tick();
      expectStatus(await owner.put(`/v1/spaces/${space}/comments/${second.body.id}/upvote`), 200);
      const after = await unread(member);
      expect(after.map((item) => [item.scope.preview.id, item.aggregation?.totalCount ?? 1])).toEqual([
        [second.body.id, 1],
        [commentId, 2],
      ]);
    });

    it('does not tell an author who no longer reads the post (left the space)', async () => {
      const leaver = await person(t);
      await admit(owner, space, leaver);
      const id = await post(leaver, { topic: publicTopic, body: 'Bye soon' });
      expectStatus(await leaver.delete(`/spaces/${space}/membership`), 204);
      expectStatus(await owner.put(`/v1/spaces/${space}/posts/${id}/upvote`), 200);
      const rows = await t.dataSource.query('SELECT 1 FROM notifications WHERE recipient_did = $1', [
        leaver.did,
      ]);
      expect(rows).toEqual([]);
    });

    it('notify.post.comment.added: not to a post author who left the space', async () => {
      const leaver = await person(t);
      await admit(owner, space, leaver);
      const id = await post(leaver, { topic: publicTopic, body: 'Leaving soon' });
      expectStatus(await admin.post(`/v1/spaces/${space}/posts/${id}/comments`, { body: 'Before' }), 201);
      expect(await kinds(leaver)).toEqual(['notify.post.comment.added']);
      await readAll(leaver);
      expectStatus(await leaver.delete(`/spaces/${space}/membership`), 204);
      tick();
      expectStatus(await owner.post(`/v1/spaces/${space}/posts/${id}/comments`, { body: 'Stay!' }), 201);
      expect(await written(leaver)).toEqual([]);
      // Back in the space, nothing of the time away shows.
      await admit(owner, space, leaver);
      expect(await kinds(leaver)).toEqual([]);
    });

    it('notify.post.comment.added: not to a post author removed from the group of the post’s topic', async () => {
      const group = await newGroup(owner, space, { name: 'Throwers' });
      const thrower = await person(t);
      await admit(owner, space, thrower);
      await addToGroup(owner, space, group.id, thrower);
      const groupTopic = await newTopic(owner, space, 'Wheel room', { groups: [group.id] });
      const id = await post(thrower, { topic: groupTopic, body: 'Centering tips' });
      expectStatus(await admin.post(`/v1/spaces/${space}/posts/${id}/comments`, { body: 'Before' }), 201);
      expect(await kinds(thrower)).toEqual(['notify.post.comment.added']);
      await readAll(thrower, admin);
      expectStatus(await owner.delete(`/spaces/${space}/groups/${group.id}/members/${thrower.did}`), 204);
      tick();
      expectStatus(await admin.post(`/v1/spaces/${space}/posts/${id}/comments`, { body: 'After' }), 201);
      expect(await written(thrower)).toEqual([]);
      // Back in the group, the comment made while out is not there (it was never written).
      await addToGroup(owner, space, group.id, thrower);
      expect(await kinds(thrower)).toEqual([]);
    });

    it('notify.comment.reaction.added: not to a comment author who cannot read the post anymore', async () => {
      const group = await newGroup(owner, space, { name: 'Kiln crew' });
      const groupTopic = await newTopic(owner, space, 'Kiln log', { groups: [group.id] });
      const id = await post(admin, { topic: publicTopic, title: 'Cone 6', body: 'Schedule' });
      const comment = await member.post(`/v1/spaces/${space}/posts/${id}/comments`, { body: 'Slow cool?' });
      expectStatus(comment, 201);
      const commentId = comment.body.id as string;
      await readAll(admin, member);
      // While the member reads the post, an upvote of their comment tells them.
      expectStatus(await other.put(`/v1/spaces/${space}/comments/${commentId}/upvote`), 200);
      expect(await kinds(member)).toEqual(['notify.comment.reaction.added']);
      await readAll(member);
      expectStatus(await admin.patch(`/v1/spaces/${space}/posts/${id}`, { topic: groupTopic }), 200);
      tick();
      expectStatus(await owner.put(`/v1/spaces/${space}/comments/${commentId}/upvote`), 200);
      expect(await written(member)).toEqual([]);
      // Moved back, the upvote made while the member could not read the post is not there.
      expectStatus(await admin.patch(`/v1/spaces/${space}/posts/${id}`, { topic: publicTopic }), 200);
      expect(await kinds(member)).toEqual([]);
    });

    it('an existing notify.post.comment.added stops showing when its post moves to a topic the recipient cannot read', async () => {
      const group = await newGroup(owner, space, { name: 'Glaze team' });
      const groupTopic = await newTopic(owner, space, 'Glaze book', { groups: [group.id] });
      const id = await post(admin, { topic: publicTopic, title: 'Celadon', body: 'Recipe' });
      const root = await member.post(`/v1/spaces/${space}/posts/${id}/comments`, { body: 'Which clay?' });
      expectStatus(root, 201);
      await readAll(admin, member);
      tick();
      const reply = await owner.post(`/v1/spaces/${space}/posts/${id}/comments`, {
        body: 'Porcelain',
        parentCommentId: root.body.id,
      });
      expectStatus(reply, 201);
      const [toMember] = await unread(member);
      expect(toMember).toMatchObject({
        type: 'notify.post.comment.added',
        scope: { preview: { id: reply.body.id, title: 'Olive Owner replied to your comment: Celadon' } },
      });
      const unreadBefore = (await member.get('/notifications/status')).body.unreadCount as number;
      expectStatus(await admin.patch(`/v1/spaces/${space}/posts/${id}`, { topic: groupTopic }), 200);
      expect(await kinds(member)).toEqual([]);
      expect((await member.get('/notifications/status')).body.unreadCount).toBe(unreadBefore - 1);
      expectNotFound(await member.post(`/notifications/${toMember.id}/mark-read`));
      // The post's author, an admin, still reads it and still sees theirs.
      expect(await kinds(admin)).toEqual(['notify.post.comment.added']);
      expectStatus(await admin.patch(`/v1/spaces/${space}/posts/${id}`, { topic: publicTopic }), 200);
      expect((await unread(member)).map((item) => item.id)).toEqual([toMember.id]);
    });
  });

  it('names people by handle where they have no display name on membership kinds too', async () => {
    const joiner = await person(t);
    expectStatus(await joiner.signUp('jo-handle'), 201);
    expectStatus(await joiner.post(`/spaces/${space}/join`, {}), 200);
    const [item] = await unread(owner);
    expect(item.scope.preview).toMatchObject({
      title: 'jo-handle joined',
      createdBy: { did: joiner.did, displayName: 'jo-handle' },
    });
  });
});
