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

/**
 * The Redis store sends the stages charged in one turn of the event loop as one command, each key
 * once: what a loaded replica saves (docs/decisions/0089-the-rate-limiter-without-promises-one-redis-command-per-turn.md).
 */
(redisUrl ? describe : describe.skip)('redis store: one command per turn of the event loop', () => {
  it('answers each stage the count it would have seen alone, in the order the stages came', async () => {
    const prefix = `test:turn:${randomUUID()}:`;
    const client = new Redis(redisUrl!);
    const watcher = new Redis(redisUrl!);
    clients.push(client, watcher);
    const store = new RedisRateLimitStore(new ManualClock(), client, prefix);
    // Loads the script, so what MONITOR sees below is one EVALSHA per command.
    await store.incrementAll([{ key: 'loaded', ttl: 1_000, limit: 1, cost: 1 }]);
    const monitor = await watcher.monitor();
    const scripted: string[][] = [];
    monitor.on('monitor', (_time: string, args: string[]) => {
      // The script's own commands show too; the EVALSHA is the command the store sent.
      if (/^eval/i.test(args[0]) && args.some((arg) => arg.startsWith(prefix))) scripted.push(args);
    });
    try {
      const stage = (ip: string) => [
        { key: `class:${ip}`, ttl: 60_000, limit: 3, cost: 1 },
        { key: 'all:shared', ttl: 60_000, limit: 100, cost: 2 },
      ];
      const turn = await Promise.all(
        ['a', 'b', 'a', 'a', 'a', 'b'].map((ip) => store.incrementAll(stage(ip))),
      );
      expect(turn.map(([own, shared]) => [own.totalHits, own.isBlocked, shared.totalHits])).toEqual([
        [1, false, 2],
        [1, false, 4],
        [2, false, 6],
        [3, false, 8],
        [4, true, 10],
        [2, false, 12],
      ]);
      await until(() => scripted.length > 0);
      expect(scripted).toHaveLength(1);
      // Three keys, each once, with the costs of its stages summed.
      expect(scripted[0].slice(2, 6)).toEqual([
        '3',
        `${prefix}class:a`,
        `${prefix}all:shared`,
        `${prefix}class:b`,
      ]);
      expect(scripted[0].slice(7)).toEqual(['60000', '4', '60000', '12', '60000', '2']);
      // A stage of a later turn is a command of its own and counts on.
      const [later] = await store.incrementAll(stage('b'));
      expect(later.totalHits).toBe(3);
      await until(() => scripted.length === 2);
    } finally {
      monitor.disconnect();
    }
  });

  it('fails every stage of a turn whose command fails', async () => {
    const client = new Redis(redisUrl!, { enableOfflineQueue: false, lazyConnect: true });
    const store = new RedisRateLimitStore(new ManualClock(), client, `test:turn:${randomUUID()}:`);
    const outcomes = ['a', 'b'].map((ip) =>
      store.incrementAll([{ key: ip, ttl: 1_000, limit: 1, cost: 1 }]).then(
        () => 'answered',
        (error: Error) => error.message,
      ),
    );
    expect(await Promise.all(outcomes)).toEqual([
      expect.stringMatching(/writeable/),
      expect.stringMatching(/writeable/),
    ]);
    client.disconnect();
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 200 && !condition(); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(condition()).toBe(true);
}
