import request from 'supertest';
import { parseEntityId } from '../../../src/common/ids/entity-id';
import { drain } from '../../../src/infrastructure/health/drain';
import { Metrics } from '../../../src/infrastructure/metrics/metrics';
import { Actor, publish } from '../../support/actors';
import { eventually } from '../../support/eventually';
import { expectStatus } from '../spaces/support';
import { admit, makePublic, newSpace } from '../memberships/support';
import { newTopic } from '../posts/support';
import { bootStreamApp, proofBy, StreamApp, StreamClient } from './support';

const HEARTBEAT_MS = 25_000;
const RESUME_MAX = 3;

/**
 * GET /v1/stream end to end over a real socket (docs/decisions/0170-a-live-stream-of-notifications.md):
 * each new notification of the caller arrives as the listing shows it, nobody else's, nothing for a
 * rolled-back write; resume by Last-Event-ID within its bound, a reset past it; the heartbeat; the
 * per-person cap; access; revocation and key removal close it; the drain ends it with a retry hint.
 * Runs on Redis when REDIS_URL is set, in-process otherwise.
 */
describe('notification stream (e2e)', () => {
  let t: StreamApp;
  let owner: Actor;
  let member: Actor;
  let other: Actor;
  let space: string;
  let topic: string;
  const open: StreamClient[] = [];

  const connect = async (
    actor: Actor | null,
    options?: Parameters<typeof StreamClient.open>[2],
  ): Promise<StreamClient> => {
    const client = await StreamClient.open(t, actor, options);
    open.push(client);
    return client;
  };

  /** Waits until the post's announcement fan-out has finished. */
  const announced = async (postId: string) => {
    const key = `notify.post.created:${parseEntityId('post', postId)}`;
    const done = await eventually(
      async () =>
        (await t.dataSource.query('SELECT done_at FROM notification_fanouts WHERE key = $1', [key]))[0]
          ?.done_at as Date | undefined,
      (doneAt) => !!doneAt,
    );
    if (!done) throw new Error(`${postId} was never announced`);
  };

  const newPost = async (author: Actor, title: string): Promise<string> => {
    const response = await author.post(`/v1/spaces/${space}/posts`, { topic, title, body: 'Text' });
    expectStatus(response, 201);
    await announced(response.body.id as string);
    return response.body.id as string;
  };

  const comment = async (author: Actor, postId: string, body = 'Nice') =>
    expectStatus(await author.post(`/v1/spaces/${space}/posts/${postId}/comments`, { body }), 201);

  /** The caller's listing item of this id (what GET /notifications answers). */
  const listed = async (caller: Actor, id: string) => {
    const response = await caller.get('/notifications');
    expectStatus(response, 200);
    return (response.body.items as { id: string }[]).find((item) => item.id === id);
  };

  beforeAll(async () => {
    t = await bootStreamApp({
      env: {
        STREAM_MAX_PER_IDENTITY: '2',
        STREAM_RESUME_MAX_EVENTS: String(RESUME_MAX),
        STREAM_HEARTBEAT_MS: String(HEARTBEAT_MS),
        // Far shorter than any stream here lives: the stream must outlast the request timeouts.
        REQUEST_TIMEOUT_MS: '1000',
        HEADERS_TIMEOUT_MS: '1000',
        KEEP_ALIVE_TIMEOUT_MS: '1000',
      },
    });
    [owner, member, other] = await Promise.all([t.person(), t.person(), t.person()]);
    expectStatus(await owner.signUp('olive', 'Olive Owner'), 201);
    expectStatus(await member.signUp('mia', 'Mia Member'), 201);
    expectStatus(await other.signUp('otto', 'Otto Other'), 201);
    space = (await newSpace(owner, 'Streams')).id;
    await makePublic(owner, space);
    await admit(owner, space, member);
    await admit(owner, space, other);
    topic = await newTopic(owner, space, 'Open', 'public');
  });

  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });

  afterAll(async () => {
    await t.close();
  });

  it('sends a new notification as the listing shows it, with the headers of an event stream', async () => {
    const postId = await newPost(member, 'Kiln day');
    const stream = await connect(member);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-store');
    expect(stream.headers['x-accel-buffering']).toBe('no');
    expect(stream.headers['content-encoding']).toBeUndefined();

    await comment(owner, postId, 'Lovely');
    const [event] = await stream.waitFor(1);
    const data = JSON.parse(event.data) as { id: string; type: string };
    expect(data.type).toBe('notify.post.comment.added');
    expect(event.id).toMatch(/^[A-Za-z0-9_-]+$/);
    // Exactly the record GET /notifications lists (design.md §14 shape).
    expect(data).toEqual(await listed(member, data.id));
  });

  it('sends an aggregated notification again, as updated, with a later position', async () => {
    const postId = await newPost(member, 'Two voices');
    const stream = await connect(member);
    await comment(owner, postId, 'first');
    await comment(other, postId, 'second');
    const [first, second] = await stream.waitFor(2);
    const [before, after] = [JSON.parse(first.data), JSON.parse(second.data)];
    expect(after.id).toBe(before.id);
    expect(before.aggregation).toBeNull();
    expect(after.aggregation).toMatchObject({ type: 'identity', totalCount: 2 });
    expect(second.id).not.toBe(first.id);
    expect(after).toEqual(await listed(member, after.id));
    // Resuming from the first position sends the updated one only.
    const resumed = await connect(member, { lastEventId: first.id });
    const [again] = await resumed.waitFor(1);
    expect(JSON.parse(again.data)).toEqual(after);
  });

  it('outlives the request timeouts and sends nothing of another person’s notifications', async () => {
    const mine = await newPost(member, 'Mine');
    const theirs = await newPost(other, 'Theirs');
    const memberStream = await connect(member);
    const otherStream = await connect(other);
    // Longer than REQUEST_TIMEOUT_MS and KEEP_ALIVE_TIMEOUT_MS (1 s): the server must not cut it.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(memberStream.ended).toBe(false);

    await comment(owner, mine, 'For Mia');
    await memberStream.waitFor(1);
    await comment(owner, theirs, 'For Otto');
    const [otto] = await otherStream.waitFor(1);
    expect(JSON.parse(otto.data)).toMatchObject({
      type: 'notify.post.comment.added',
      scope: { preview: { title: 'Olive Owner commented on your post: Theirs' } },
    });
    expect(otherStream.data()).toHaveLength(1);
    expect(memberStream.data()).toHaveLength(1);
    expect(memberStream.data()[0]).toMatchObject({
      scope: { preview: { title: 'Olive Owner commented on your post: Mine' } },
    });
  });

  it('sends nothing for a rolled-back fan-out batch, and the retried batch once it commits', async () => {
    const ownerPost = await newPost(owner, 'Owner post');
    const stream = await connect(owner);
    await t.dataSource.query(`CREATE SEQUENCE stream_fanout_attempts`);
    await t.dataSource.query(`
      CREATE FUNCTION stream_refuse_fanout() RETURNS trigger AS $$
      BEGIN PERFORM nextval('stream_fanout_attempts'); RAISE EXCEPTION 'fan-out refused'; END $$ LANGUAGE plpgsql`);
    await t.dataSource.query(`
      CREATE TRIGGER stream_refuse_fanout BEFORE UPDATE ON notification_fanouts
      FOR EACH ROW EXECUTE FUNCTION stream_refuse_fanout()`);
    try {
      const response = await member.post(`/v1/spaces/${space}/posts`, { topic, title: 'Refused', body: 'x' });
      expectStatus(response, 201);
      // The announcement wrote the owner's notification, then its batch rolled back.
      const attempts = await eventually(
        async () =>
          Number(
            (await t.dataSource.query(`SELECT last_value, is_called FROM stream_fanout_attempts`))[0]
              .is_called
              ? 1
              : 0,
          ),
        (n) => n > 0,
      );
      expect(attempts).toBe(1);
      // A later committed notification arrives first: the rolled-back one was never sent.
      await comment(member, ownerPost, 'After the rollback');
      const [first] = await stream.waitFor(1);
      expect(JSON.parse(first.data)).toMatchObject({ type: 'notify.post.comment.added' });
    } finally {
      await t.dataSource.query(`DROP TRIGGER stream_refuse_fanout ON notification_fanouts`);
      await t.dataSource.query(`DROP FUNCTION stream_refuse_fanout()`);
      await t.dataSource.query(`DROP SEQUENCE stream_fanout_attempts`);
    }
    // The job's retry commits: now it is sent, once.
    const events = await stream.waitFor(2);
    expect(JSON.parse(events[1].data)).toMatchObject({ type: 'notify.post.created' });
    expect(stream.data().filter((item) => item.type === 'notify.post.created')).toHaveLength(1);
  });

  describe('resume with Last-Event-ID', () => {
    it('sends what was missed, in order, within the bound', async () => {
      const posts = [await newPost(member, 'R1'), await newPost(member, 'R2'), await newPost(member, 'R3')];
      const first = await connect(member);
      await comment(owner, posts[0], 'one');
      const [seen] = await first.waitFor(1);
      first.close();
      await comment(owner, posts[1], 'two');
      await comment(owner, posts[2], 'three');

      const resumed = await connect(member, { lastEventId: seen.id });
      const missed = await resumed.waitFor(2);
      expect(missed.map((event) => JSON.parse(event.data).scope.preview.title)).toEqual([
        'Olive Owner commented on your post: R2',
        'Olive Owner commented on your post: R3',
      ]);
      expect(resumed.events.filter((event) => event.event === 'reset')).toHaveLength(0);

      // Resuming from the newest position sends nothing again; live events still come.
      const again = await connect(member, { lastEventId: missed[1].id });
      await comment(owner, posts[0], 'four');
      const [live] = await again.waitFor(1);
      expect(JSON.parse(live.data).scope.preview.title).toBe('Olive Owner commented on your post: R1');
      expect(again.data()).toHaveLength(1);
    });

    it('sends a reset past the bound, whose id resumes from the newest notification', async () => {
      const posts: string[] = [];
      for (let i = 0; i <= RESUME_MAX; i++) posts.push(await newPost(member, `B${i}`));
      const first = await connect(member);
      await comment(owner, posts[0], 'zero');
      const [seen] = await first.waitFor(1);
      first.close();
      for (const postId of posts.slice(1)) await comment(other, postId, 'missed');
      await comment(owner, posts[0], 'missed too');

      const resumed = await connect(member, { lastEventId: seen.id });
      const [reset] = await resumed.waitFor(1, 'reset');
      expect(JSON.parse(reset.data)).toEqual({ reason: 'too-many' });
      expect(resumed.data()).toHaveLength(0);
      const after = await connect(member, { lastEventId: reset.id });
      await comment(owner, posts[1], 'live');
      await after.waitFor(1);
      expect(after.events.map((event) => event.event)).toEqual(['notification']);
    });

    it('sends a reset for a position older than the resume window, or one that is not a position', async () => {
      const postId = await newPost(member, 'Old');
      const first = await connect(member);
      await comment(owner, postId, 'old');
      const [seen] = await first.waitFor(1);
      first.close();

      t.clock.offsetMs += 25 * 3600 * 1000;
      try {
        const late = await connect(member, { lastEventId: seen.id });
        const [reset] = await late.waitFor(1, 'reset');
        expect(JSON.parse(reset.data)).toEqual({ reason: 'too-old' });
      } finally {
        t.clock.offsetMs -= 25 * 3600 * 1000;
      }
      const forged = await connect(member, { lastEventId: 'not-a-position' });
      const [reset] = await forged.waitFor(1, 'reset');
      expect(JSON.parse(reset.data)).toEqual({ reason: 'unknown-position' });
    });
  });

  it('counts open streams in plat_stream_connections, and answers HEAD without holding one', async () => {
    const head = await member.send('HEAD', '/v1/stream');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const gauge = async () =>
      (await t.app.get(Metrics).exposition()).body.match(/^plat_stream_connections (\d+)$/m)?.[1];
    expect(await gauge()).toBe('0');
    const stream = await connect(member);
    expect(await gauge()).toBe('1');
    stream.close();
    expect(await eventually(gauge, (value) => value === '0')).toBe('0');
  });

  it('writes a heartbeat comment at every tick of the heartbeat timer', async () => {
    const stream = await connect(member);
    expect(stream.comments).toEqual(['connected']);
    expect(t.clock.fire(HEARTBEAT_MS)).toBeGreaterThan(0);
    await eventually(
      () => stream.comments.length,
      (n) => n === 2,
    );
    t.clock.fire(HEARTBEAT_MS);
    await eventually(
      () => stream.comments.length,
      (n) => n === 3,
    );
    expect(stream.comments).toEqual(['connected', 'heartbeat', 'heartbeat']);
  });

  it('refuses a stream past the per-person cap with a 429 in the error envelope', async () => {
    const a = await connect(other);
    await connect(other);
    const third = await connect(other);
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toBe('1');
    expect(JSON.parse(third.body)).toEqual({
      code: 'E_RATE_LIMITED',
      message: 'At most 2 open streams per person',
      scope: 'stream',
      retryAfterMs: 1000,
    });
    // Someone else is not counted against it; a closed stream frees its slot.
    expect((await connect(member)).status).toBe(200);
    a.close();
    const freed = await eventually(
      async () => {
        const attempt = await connect(other);
        if (attempt.status !== 200) attempt.close();
        return attempt.status;
      },
      (status) => status === 200,
    );
    expect(freed).toBe(200);
  });

  describe('access', () => {
    it('needs a request proof (401)', async () => {
      const stream = await connect(null);
      expect(stream.status).toBe(401);
      expect(JSON.parse(stream.body)).toMatchObject({ code: 'E_UNAUTHORIZED' });
    });

    it('refuses a credential without read:profile (403) and takes one with it, as its issuer', async () => {
      const app = await t.person();
      const narrow = member.grant(app, ['read:posts']);
      const refused = await connect(app, { credential: narrow });
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'E_FORBIDDEN' });

      const postId = await newPost(member, 'Via app');
      const granted = await connect(app, { credential: member.grant(app, ['read:profile']) });
      expect(granted.status).toBe(200);
      await comment(owner, postId, 'to the app');
      const [event] = await granted.waitFor(1);
      const data = JSON.parse(event.data) as { id: string };
      expect(data).toEqual(await listed(member, data.id));
    });

    it('closes within 5 s once the credential is revoked', async () => {
      const app = await t.person();
      const credential = member.grant(app, ['read:profile']);
      const stream = await connect(app, { credential });
      expect(stream.status).toBe(200);
      const started = Date.now();
      await member.revoke(credential);
      expect(await stream.waitForEnd(5000)).toBe(true);
      expect(Date.now() - started).toBeLessThan(5000);
      // And it cannot come back.
      expect((await connect(app, { credential })).status).toBe(403);
    });

    it('closes at the first heartbeat past the credential’s expiry', async () => {
      const app = await t.person();
      const credential = member.grant(app, ['read:profile'], [], { expiresInSeconds: 600 });
      const stream = await connect(app, { credential });
      expect(stream.status).toBe(200);
      t.clock.fire(HEARTBEAT_MS);
      await eventually(
        () => stream.comments.length,
        (n) => n === 2,
      );
      expect(stream.ended).toBe(false);
      t.clock.offsetMs += 601_000;
      try {
        t.clock.fire(HEARTBEAT_MS);
        expect(await stream.waitForEnd(5000)).toBe(true);
      } finally {
        t.clock.offsetMs -= 601_000;
      }
    });

    it("closes within 5 s once the person's identity is deleted, theirs and an app's on their credential", async () => {
      const gone = await t.person();
      const app = await t.person();
      const own = await connect(gone);
      const granted = await connect(app, { credential: gone.grant(app, ['read:profile']) });
      const bystander = await connect(member);
      expect([own.status, granted.status, bystander.status]).toEqual([200, 200, 200]);
      const started = Date.now();
      // Deactivation (docs/decisions/0190-deactivation-follows-the-identity-chain.md).
      await publish(t, [gone.identity.delete({ clock: () => t.clock.now() }).jws]);
      expect(await own.waitForEnd(5000)).toBe(true);
      expect(await granted.waitForEnd(5000)).toBe(true);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(bystander.ended).toBe(false);
      expect((await connect(gone)).status).toBe(401);
    });

    it("closes within 5 s once the person asks for their erasure, theirs and an app's on their credential; none opens meanwhile", async () => {
      const leaving = await t.person();
      expectStatus(await leaving.signUp('stream-leaving'), 201);
      const app = await t.person();
      const credential = leaving.grant(app, ['read:profile']);
      const own = await connect(leaving);
      const granted = await connect(app, { credential });
      const bystander = await connect(member);
      expect([own.status, granted.status, bystander.status]).toEqual([200, 200, 200]);
      const started = Date.now();
      // Deactivated while the erasure is pending (docs/decisions/0191-a-pending-erasure-deactivates-as-a-delete.md).
      expectStatus(await leaving.send('DELETE', '/profile', { confirmHandle: 'stream-leaving' }), 202);
      expect(await own.waitForEnd(5000)).toBe(true);
      expect(await granted.waitForEnd(5000)).toBe(true);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(bystander.ended).toBe(false);
      // Its proofs verify only where leaving needs them (docs/decisions/0198-a-pending-erasure-accepts-proofs-only-to-leave.md):
      // no stream opens on them nor on its credentials.
      const refused = await connect(leaving);
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body)).toEqual({
        code: 'E_FORBIDDEN',
        message: 'Erasure of this account is pending; restore it (POST /profile/restore) to use it',
      });
      expect((await connect(app, { credential })).status).toBe(403);
      // A restore brings the streams back.
      expectStatus(await leaving.post('/profile/restore', {}), 204);
      expect((await connect(leaving)).status).toBe(200);
      expect((await connect(app, { credential })).status).toBe(200);
    });

    it('closes within 5 s once the signing key is removed, and keeps a stream of another key', async () => {
      const frank = await t.person();
      const oldKey = frank.identity.authKey;
      const added = frank.identity.addKey(['auth']);
      await publish(t, [added.jws]);
      const byOldKey = await StreamClient.open(t, null, {
        headers: proofBy(t, frank.identity, oldKey, () => t.clock.now()),
      });
      open.push(byOldKey);
      expect(byOldKey.status).toBe(200);
      const newKey = frank.identity.heldKeys().find(({ key }) => key.keyId !== oldKey.keyId)!.key;
      const byNewKey = await StreamClient.open(t, null, {
        headers: proofBy(t, frank.identity, newKey, () => t.clock.now()),
      });
      open.push(byNewKey);
      expect(byNewKey.status).toBe(200);
      const started = Date.now();
      await publish(t, [frank.identity.removeKey(oldKey.keyId).jws]);
      expect(await byOldKey.waitForEnd(5000)).toBe(true);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(byNewKey.ended).toBe(false);
    });
  });

  it('is documented as text/event-stream with its event shapes', async () => {
    const response = await request(t.http).get('/openapi.json');
    expectStatus(response, 200);
    const operation = response.body.paths['/v1/stream'].get;
    expect(Object.keys(operation.responses['200'].content)).toEqual(['text/event-stream']);
    expect(JSON.stringify(operation.responses['200'].content)).toContain('NotificationRecord');
    expect(operation['x-scopes']).toEqual(['read:profile']);
    expect(operation.responses['429']).toBeDefined();
  });

  // Last: the drain stops this replica.
  it('on drain, ends every stream with a retry hint and no reset, without waiting for it', async () => {
    const stream = await connect(member);
    const started = Date.now();
    await drain(t.app, 10_000);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await stream.waitForEnd(2000)).toBe(true);
    expect(stream.retry).toBe(1000);
    expect(stream.events.filter((event) => event.event === 'reset')).toHaveLength(0);
  });
});
