import Redis from 'ioredis';
import { parseEntityId } from '../../../src/common/ids/entity-id';
import { Actor } from '../../support/actors';
import { eventually } from '../../support/eventually';
import { TcpRelay } from '../../support/network';
import { admit, makePublic, newSpace } from '../memberships/support';
import { newTopic } from '../posts/support';
import { expectStatus } from '../spaces/support';
import { bootStreamApp, StreamApp, StreamClient } from './support';

const withRedis = process.env.REDIS_URL ? describe : describe.skip;

/**
 * Replicas sharing PostgreSQL and Redis (docs/decisions/0170-a-live-stream-of-notifications.md):
 * a notification written on one reaches a stream held by another; the per-person cap counts
 * streams of every replica; a replica that loses Redis keeps its streams open and, once its
 * subscription is back, sends what was written meanwhile (read from the table), without the
 * client reconnecting.
 */
withRedis('notification stream across replicas (e2e)', () => {
  let a: StreamApp;
  let b: StreamApp;
  let c: StreamApp;
  let relay: TcpRelay;
  let owner: Actor;
  let member: Actor;
  let space: string;
  let topic: string;
  const open: StreamClient[] = [];

  const connect = async (app: StreamApp, actor: Actor): Promise<StreamClient> => {
    const client = await StreamClient.open(app, actor);
    open.push(client);
    return client;
  };

  const newPost = async (title: string): Promise<string> => {
    const response = await member.post(`/v1/spaces/${space}/posts`, { topic, title, body: 'Text' });
    expectStatus(response, 201);
    const key = `notify.post.created:${parseEntityId('post', response.body.id as string)}`;
    await eventually(
      async () =>
        (await a.dataSource.query('SELECT done_at FROM notification_fanouts WHERE key = $1', [key]))[0],
      (row) => !!row?.done_at,
    );
    return response.body.id as string;
  };

  const comment = async (postId: string, body: string) =>
    expectStatus(await owner.post(`/v1/spaces/${space}/posts/${postId}/comments`, { body }), 201);

  beforeAll(async () => {
    const env = { STREAM_MAX_PER_IDENTITY: '2', STREAM_REDIS_PREFIX: `plat:test:${Date.now()}:stream:` };
    a = await bootStreamApp({ env });
    b = await bootStreamApp({ env, databaseUrl: a.databaseUrl });
    const redis = new URL(process.env.REDIS_URL!);
    relay = await TcpRelay.start({ host: redis.hostname, port: Number(redis.port || 6379) });
    c = await bootStreamApp({
      env: { ...env, REDIS_URL: relay.route(process.env.REDIS_URL!) },
      databaseUrl: a.databaseUrl,
    });
    [owner, member] = await Promise.all([a.person(), a.person()]);
    expectStatus(await owner.signUp('olive', 'Olive Owner'), 201);
    expectStatus(await member.signUp('mia', 'Mia Member'), 201);
    space = (await newSpace(owner, 'Replicas')).id;
    await makePublic(owner, space);
    await admit(owner, space, member);
    topic = await newTopic(owner, space, 'Open', 'public');
  });

  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });

  afterAll(async () => {
    await c?.close();
    await relay?.close();
    await b?.close();
    await a?.close();
  });

  it('sends a notification written on one replica to a stream held by another', async () => {
    const postId = await newPost('Across');
    const onB = await connect(b, member);
    expect(onB.status).toBe(200);
    await comment(postId, 'written on A');
    const [event] = await onB.waitFor(1);
    const data = JSON.parse(event.data) as { id: string };
    const listed = await member.get('/notifications');
    expect(data).toEqual((listed.body.items as { id: string }[]).find((item) => item.id === data.id));
  });

  it('counts the per-person cap across replicas', async () => {
    expect((await connect(a, member)).status).toBe(200);
    expect((await connect(b, member)).status).toBe(200);
    const third = await connect(c, member);
    expect(third.status).toBe(429);
    expect(JSON.parse(third.body)).toMatchObject({ code: 'E_RATE_LIMITED', scope: 'stream' });
  });

  it('does not count the leases of a replica that died once they lapse', async () => {
    const redis = new Redis(process.env.REDIS_URL!);
    try {
      const key = `${a.config.STREAM_REDIS_PREFIX}slots:${member.did}`;
      // The streams of the tests before have released their slots.
      expect(
        await eventually(
          () => redis.zcard(key),
          (held) => held === 0,
        ),
      ).toBe(0);
      // Two streams of a replica that died without closing them: leases that are still current...
      await redis.zadd(key, Date.now() + 60_000, 'dead-1', Date.now() + 60_000, 'dead-2');
      const refused = await connect(a, member);
      expect(refused.status).toBe(429);
      // ...and the same leases once lapsed (no heartbeat renewed them).
      await redis.zadd(key, Date.now() - 1, 'dead-1', Date.now() - 1, 'dead-2');
      expect((await connect(a, member)).status).toBe(200);
      expect(await redis.zscore(key, 'dead-1')).toBeNull();
    } finally {
      redis.disconnect();
    }
  });

  it('keeps streams open through a Redis cut and sends what was written meanwhile once it is back', async () => {
    const postId = await newPost('Cut');
    const onC = await connect(c, member);
    expect(onC.status).toBe(200);
    await relay.cut();
    try {
      // Written on A while C cannot hear Redis: C's subscription misses it.
      await comment(postId, 'during the cut');
      // A new stream on C cannot be counted: refused (503), never let through uncounted.
      const refused = await StreamClient.open(c, member);
      open.push(refused);
      expect(refused.status).toBe(503);
      expect(onC.ended).toBe(false);
    } finally {
      await relay.restore();
    }
    const [event] = await onC.waitFor(1);
    expect(JSON.parse(event.data)).toMatchObject({
      type: 'notify.post.comment.added',
      scope: { preview: { title: 'Olive Owner commented on your post: Cut' } },
    });
    expect(onC.ended).toBe(false);
  });
});
