import Redis from 'ioredis';
import request from 'supertest';
import { MemoryRateLimitStore } from '../../../src/infrastructure/rate-limit/memory-store';
import { RateLimitStore } from '../../../src/infrastructure/rate-limit/rate-limit-store';
import { RedisRateLimitStore } from '../../../src/infrastructure/rate-limit/redis-store';
import { createMigratedTestDatabase } from '../../support/database';
import { TestIdentity } from '../relay/support';
import { bootLimitedApp, LimitedApp, ManualClock, REDIS_URL, uniquePrefix } from './support';

const INGEST = '/relay/proof/v1/operations';
/** Tokens the relay rejects at once: only their number matters to the budget. */
const batchOf = (size: number) => Array.from({ length: size }, (_, index) => `not-a-jws-${index}`);

/**
 * Relay ingest is charged to `create` per operation, not per request (docs/decisions/0031-relay-ingest-and-post-spaces-are-create.md), in both
 * counter stores: the store takes a weighted hit, and a batch bigger than what is left is refused
 * before any of it is verified.
 */
describe.each([
  ['in memory', undefined],
  ['on Redis', REDIS_URL],
])('relay ingest budgets %s (e2e)', (_store, redisUrl) => {
  let roomy: LimitedApp;
  let tight: LimitedApp;
  let drop: () => Promise<void>;
  let ipCounter = 0;
  const freshIp = () => `203.0.113.${++ipCounter}`;

  const ingest = (t: LimitedApp, ip: string, operations: string[]) =>
    request(t.http).post(INGEST).set('X-Forwarded-For', ip).send({ operations });

  const expectCreateRefused = (response: request.Response, limit: number) => {
    expect(response.status).toBe(429);
    expect(response.body).toEqual({
      code: 'E_RATE_LIMITED',
      message: 'Too many requests',
      scope: 'create',
      retryAfterMs: 60000,
    });
    expect(response.headers['retry-after']).toBe('60');
    expect(response.headers['ratelimit-limit']).toBe(String(limit));
    expect(response.headers['ratelimit-remaining']).toBe('0');
  };

  beforeAll(async () => {
    const database = await createMigratedTestDatabase();
    drop = database.drop;
    // The relay dates operations by the wall clock: the limiter's clock starts there too.
    const boot = (posts: string) =>
      bootLimitedApp({
        databaseUrl: database.url,
        clock: new ManualClock(Date.now()),
        env: {
          RATE_LIMIT_IP_ALL: '1000',
          RATE_LIMIT_IP_POSTS: posts,
          TRUST_PROXY: 'true',
          REDIS_URL: redisUrl,
          RATE_LIMIT_REDIS_PREFIX: uniquePrefix('relay-batches'),
        },
      });
    roomy = await boot('150');
    tight = await boot('30');
  });

  afterAll(async () => {
    await roomy?.close();
    await tight?.close();
    await drop();
  });

  it('a 100-operation batch spends 100 units of `create`; the next request sees the rest', async () => {
    const ip = freshIp();
    const batch = await ingest(roomy, ip, batchOf(100));
    expect(batch.status).toBe(200);
    expect(batch.body.results).toHaveLength(100);
    expect(batch.headers['ratelimit-limit']).toBe('150');
    expect(batch.headers['ratelimit-remaining']).toBe('50');

    const single = await ingest(roomy, ip, batchOf(1));
    expect(single.status).toBe(200);
    expect(single.headers['ratelimit-remaining']).toBe('49');
    // `global` still counts requests: 2 of 1000.
    const other = await request(roomy.http).post('/v1/nowhere').set('X-Forwarded-For', ip);
    expect(other.headers['ratelimit-limit']).toBe('1000');
    expect(other.headers['ratelimit-remaining']).toBe('997');
  });

  it('refuses a batch bigger than what is left with 429 before verifying any of it', async () => {
    const ip = freshIp();
    expect((await ingest(roomy, ip, batchOf(100))).headers['ratelimit-remaining']).toBe('50');
    const identity = new TestIdentity();
    const tooBig = await ingest(roomy, ip, [identity.genesis, ...batchOf(50)]);
    expectCreateRefused(tooBig, 150);
    // Nothing of the refused batch was ingested.
    const state = await request(roomy.http).get(`/relay/proof/v1/identities/${identity.did}`);
    expect(state.status).toBe(404);
    // A refused batch counts like any refused request: the window stays closed until it resets.
    expectCreateRefused(await ingest(roomy, ip, batchOf(1)), 150);
    roomy.clock.advance(60_000);
    const reopened = await ingest(roomy, ip, [identity.genesis]);
    expect(reopened.status).toBe(200);
    expect(reopened.body.results[0]).toMatchObject({ status: 'new', chainId: identity.did });
    expect(reopened.headers['ratelimit-remaining']).toBe('149');
  });

  it('a batch that exactly spends what is left passes', async () => {
    const ip = freshIp();
    await ingest(roomy, ip, batchOf(100));
    const rest = await ingest(roomy, ip, batchOf(50));
    expect(rest.status).toBe(200);
    expect(rest.headers['ratelimit-remaining']).toBe('0');
    expectCreateRefused(await ingest(roomy, ip, batchOf(1)), 150);
  });

  it('a batch larger than the whole budget passes on an untouched window only, spending all of it', async () => {
    const ip = freshIp();
    const whole = await ingest(tight, ip, batchOf(100));
    expect(whole.status).toBe(200);
    expect(whole.headers['ratelimit-limit']).toBe('30');
    expect(whole.headers['ratelimit-remaining']).toBe('0');
    expectCreateRefused(await ingest(tight, ip, batchOf(1)), 30);

    const touched = freshIp();
    expect((await ingest(tight, touched, batchOf(1))).headers['ratelimit-remaining']).toBe('29');
    expectCreateRefused(await ingest(tight, touched, batchOf(100)), 30);
  });

  it('a refused batch body (400) costs one unit, like any request', async () => {
    const ip = freshIp();
    const invalid = await ingest(roomy, ip, batchOf(101));
    expect(invalid.status).toBe(400);
    expect(invalid.headers['ratelimit-remaining']).toBe('149');
  });
});

describe('weighted hits in both stores', () => {
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(REDIS_URL);
  });

  afterAll(async () => {
    await redis.quit();
  });

  it.each([
    ['in memory', (clock: ManualClock) => new MemoryRateLimitStore(clock, 60000)],
    ['on Redis', (clock: ManualClock) => new RedisRateLimitStore(clock, redis, uniquePrefix('weighted'))],
  ])('%s: a hit of n units adds n, whether it opens the window or not', async (_store, create) => {
    const clock = new ManualClock();
    const store: RateLimitStore = create(clock);
    expect(await store.increment('k', 60000, 10, 60000, 'k', 7)).toMatchObject({
      totalHits: 7,
      isBlocked: false,
      msToExpire: 60000,
    });
    clock.advance(1000);
    expect(await store.increment('k', 60000, 10, 60000, 'k')).toMatchObject({
      totalHits: 8,
      msToExpire: 59000,
    });
    expect(await store.increment('k', 60000, 10, 60000, 'k', 3)).toMatchObject({
      totalHits: 11,
      isBlocked: true,
    });
    clock.advance(59000);
    expect(await store.increment('k', 60000, 10, 60000, 'k', 10)).toMatchObject({
      totalHits: 10,
      isBlocked: false,
      msToExpire: 60000,
    });
  });
});
