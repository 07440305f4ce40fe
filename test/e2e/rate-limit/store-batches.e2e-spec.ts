import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { Clock } from '../../../src/common/clock/clock';
import { MemoryRateLimitStore } from '../../../src/infrastructure/rate-limit/memory-store';
import { RateLimitStore } from '../../../src/infrastructure/rate-limit/rate-limit-store';
import { RedisRateLimitStore } from '../../../src/infrastructure/rate-limit/redis-store';

class ManualClock extends Clock {
  t = 1_000_000;
  override now() {
    return new Date(this.t);
  }
}

const redisUrl = process.env.REDIS_URL;
const clients: Redis[] = [];

const stores: [string, (clock: Clock) => RateLimitStore][] = [
  ['memory', (clock) => new MemoryRateLimitStore(clock, 60_000)],
  ...(redisUrl
    ? [
        [
          'redis',
          (clock: Clock) => {
            const client = new Redis(redisUrl);
            clients.push(client);
            return new RedisRateLimitStore(clock, client, `test:batch:${randomUUID()}:`);
          },
        ] as [string, (clock: Clock) => RateLimitStore],
      ]
    : []),
];

afterAll(async () => {
  await Promise.all(clients.map((client) => client.quit()));
});

/** A stage's budgets charged as one step (one Redis command): the same counts as one by one. */
describe.each(stores)('%s store: incrementAll', (_name, create) => {
  it('counts each key in its own window, with its cost, and answers in the order asked', async () => {
    const clock = new ManualClock();
    const store = create(clock);
    const stage = [
      { key: 'class:1.2.3.4', ttl: 60_000, limit: 2, cost: 1 },
      { key: 'all:1.2.3.4', ttl: 10_000, limit: 10, cost: 3 },
    ];
    expect((await store.incrementAll(stage)).map((record) => [record.totalHits, record.msToExpire])).toEqual([
      [1, 60_000],
      [3, 10_000],
    ]);
    clock.t += 9_000;
    const [first, second] = await store.incrementAll(stage);
    expect(first).toMatchObject({ totalHits: 2, isBlocked: false, msToExpire: 51_000 });
    expect(second).toMatchObject({ totalHits: 6, msToExpire: 1_000 });
    clock.t += 1_000;
    const [third, reopened] = await store.incrementAll(stage);
    expect(third).toMatchObject({ totalHits: 3, isBlocked: true, timeToExpire: 50 });
    expect(reopened).toMatchObject({ totalHits: 3, msToExpire: 10_000 });
    // The same keys one at a time see the batches' counts.
    expect(await store.increment('class:1.2.3.4', 60_000, 2, 60_000, 'class')).toMatchObject({
      totalHits: 4,
    });
  });
});
