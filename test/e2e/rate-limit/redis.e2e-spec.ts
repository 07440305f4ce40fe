import { closedPort, silentServer } from '../../support/network';
import { once } from 'node:events';
import request from 'supertest';
import { RATE_LIMIT_STORE } from '../../../src/infrastructure/rate-limit/rate-limit-store';
import { RedisRateLimitStore } from '../../../src/infrastructure/rate-limit/redis-store';
import { createMigratedTestDatabase } from '../../support/database';
import { bootLimitedApp, LimitedApp, ManualClock, REDIS_URL, RedisRelay, uniquePrefix } from './support';

const UNAVAILABLE = {
  code: 'E_SERVICE_UNAVAILABLE',
  message: 'Rate limits cannot be checked right now; retry later',
};

const expectUnavailable = (response: request.Response) => {
  expect(response.status).toBe(503);
  expect(response.body).toEqual(UNAVAILABLE);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(response.headers['retry-after']).toBeUndefined();
  expect(response.headers['ratelimit-limit']).toBeUndefined();
  expect(response.headers['ratelimit-remaining']).toBeUndefined();
};

describe('rate limits across replicas and Redis failures (e2e)', () => {
  let databaseUrl: string;
  let drop: () => Promise<void>;
  const apps: LimitedApp[] = [];
  const boot = async (env: Record<string, string | undefined>, clock?: ManualClock) => {
    const app = await bootLimitedApp({ databaseUrl, env, clock });
    apps.push(app);
    return app;
  };

  beforeAll(async () => {
    ({ url: databaseUrl, drop } = await createMigratedTestDatabase());
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await drop();
  });

  it('two instances sharing one Redis share one budget', async () => {
    const clock = new ManualClock();
    const env = { REDIS_URL, RATE_LIMIT_REDIS_PREFIX: uniquePrefix('replicas'), RATE_LIMIT_IP_ALL: '6' };
    const [first, second] = [await boot(env, clock), await boot(env, clock)];
    for (let hit = 1; hit <= 6; hit++) {
      const response = await request((hit % 2 ? first : second).http).post('/v1/nowhere');
      expect(response.status).toBe(404);
      expect(response.headers['ratelimit-remaining']).toBe(String(6 - hit));
    }
    for (const app of [first, second]) {
      const refused = await request(app.http).post('/v1/nowhere');
      expect(refused.status).toBe(429);
      expect(refused.body.scope).toBe('global');
    }
    clock.advance(60_000);
    expect((await request(second.http).post('/v1/nowhere')).status).toBe(404);
  });

  it('two instances without Redis keep budgets of their own', async () => {
    const env = { REDIS_URL: undefined, RATE_LIMIT_IP_ALL: '2' };
    const [first, second] = [await boot(env), await boot(env)];
    for (const app of [first, second]) {
      expect((await request(app.http).post('/v1/nowhere')).headers['ratelimit-remaining']).toBe('1');
    }
  });

  it('answers 503 without Retry-After while Redis is unreachable, and never fails open', async () => {
    const app = await boot({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
    expectUnavailable(await request(app.http).get('/v1/spaces'));
    expectUnavailable(await request(app.http).post('/v1/key-proof/present'));
    const artifact = await request(app.http).get('/llms.txt');
    expect(artifact.status).toBe(503);
    expect(artifact.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(artifact.headers['retry-after']).toBeUndefined();
    expect(artifact.text).toBe('Service temporarily unavailable\n');
    expect((await request(app.http).get('/health/live')).status).toBe(200);
  });

  it('answers 503 when Redis does not answer within REDIS_TIMEOUT_MS', async () => {
    const silent = await silentServer();
    try {
      const app = await boot({ REDIS_URL: silent.url, REDIS_TIMEOUT_MS: '50' });
      const started = Date.now();
      expectUnavailable(await request(app.http).get('/v1/spaces'));
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      await silent.close();
    }
  });

  it('answers 503 when Redis stops mid-run, and recovers on its own when it is back', async () => {
    const relay = new RedisRelay(new URL(REDIS_URL));
    await relay.start();
    try {
      const app = await boot({ REDIS_URL: relay.url, RATE_LIMIT_REDIS_PREFIX: uniquePrefix('outage') });
      expect((await request(app.http).get('/v1/spaces')).headers['ratelimit-remaining']).toBe('79');
      const store = app.app.get<RedisRateLimitStore>(RATE_LIMIT_STORE);
      const closed = once(store.client, 'close');
      await relay.stop();
      await closed;
      expectUnavailable(await request(app.http).get('/v1/spaces'));
      expectUnavailable(await request(app.http).post('/v1/key-proof/present'));
      // Redis is back on the same address: the client reconnects by itself (no restart, no call).
      const ready = once(store.client, 'ready');
      await relay.start();
      await ready;
      const back = await request(app.http).get('/v1/spaces');
      expect(back.status).toBe(200);
      // The count went on where it stood: the refused requests never reached Redis.
      expect(back.headers['ratelimit-remaining']).toBe('78');
    } finally {
      await relay.stop();
    }
  });

  it('answers 503 when Redis stops answering mid-run (REDIS_TIMEOUT_MS), never failing open', async () => {
    const relay = new RedisRelay(new URL(REDIS_URL));
    await relay.start();
    try {
      // Every command of this app has the timeout, the answered ones too: 100 ms was too little for
      // them on a loaded machine (the first request, loading the script, took two round trips).
      const timeoutMs = 300;
      const app = await boot({
        REDIS_URL: relay.url,
        REDIS_TIMEOUT_MS: String(timeoutMs),
        RATE_LIMIT_REDIS_PREFIX: uniquePrefix('hang'),
      });
      expect((await request(app.http).get('/v1/spaces')).status).toBe(200);
      relay.hang();
      const started = Date.now();
      expectUnavailable(await request(app.http).get('/v1/spaces'));
      // The timeout plus the same allowance for a loaded machine as before (900 ms).
      expect(Date.now() - started).toBeLessThan(timeoutMs + 900);
      relay.answer();
      const back = await request(app.http).get('/v1/spaces');
      expect(back.status).toBe(200);
      // The timed-out hit reached Redis late and counts: a refusal never hands budget back.
      expect(back.headers['ratelimit-remaining']).toBe('77');
    } finally {
      await relay.stop();
    }
  });

  it('RATE_LIMIT_DISABLED charges nothing and never touches Redis', async () => {
    const app = await boot({
      REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
      RATE_LIMIT_DISABLED: 'true',
      RATE_LIMIT_IP_ALL: '1',
    });
    for (let hit = 1; hit <= 3; hit++) {
      const response = await request(app.http).post('/v1/nowhere');
      expect(response.status).toBe(404);
      expect(response.headers['ratelimit-limit']).toBeUndefined();
    }
  });
});
