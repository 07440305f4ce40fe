import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { bootApp, TestApp } from '../../support/app';
import { TcpRelay } from '../../support/network';
import { eventuallyTrue } from '../../support/eventually';
import { REPEATING_KIND_DATA } from './support';

const REDIS_URL = process.env.REDIS_URL;
/** Every repeating kind (one list: a new one fails every-job-survives-worker-death until listed). */
const SCHEDULED = Object.keys(REPEATING_KIND_DATA).sort();

/**
 * Schedules come back (docs/decisions/0125-no-background-work-lost.md): the repeating jobs were registered only at boot, so after Redis restarted empty
 * they were gone until a replica restarted (a due outbox row sat untouched), and a boot while Redis
 * was down never scheduled them. They are registered again whenever the queue's connection is
 * (re)established. Redis is reached through a TCP relay; "restarted empty" is the cut of the relay
 * with this app's own job keys deleted meanwhile (other suites share this Redis: never FLUSHALL).
 */
(REDIS_URL ? describe : describe.skip)(
  `repeating jobs come back with Redis${REDIS_URL ? '' : ' [skipped: needs REDIS_URL, a real Redis]'}`,
  () => {
    let relay: TcpRelay;
    let direct: Redis;
    let t: TestApp | undefined;
    const prefix = `plat:test:${randomUUID()}:jobs`;

    beforeEach(async () => {
      const target = new URL(REDIS_URL!);
      relay = await TcpRelay.start({ host: target.hostname, port: Number(target.port || 6379) });
      direct = new Redis(REDIS_URL!, { maxRetriesPerRequest: 1 });
    });

    afterEach(async () => {
      await relay.restore();
      await t?.close();
      t = undefined;
      await relay.close();
      await deleteKeys(direct, prefix);
      direct.disconnect();
    });

    const boot = () => bootApp({ env: { REDIS_URL: relay.route(REDIS_URL!), JOBS_REDIS_PREFIX: prefix } });

    async function scheduled(): Promise<string[]> {
      const queue = new Queue('jobs', { connection: direct, prefix });
      const schedulers = await queue.getJobSchedulers();
      return schedulers.map((scheduler) => scheduler.key).sort();
    }

    it('after Redis comes back empty, every repeating job is scheduled again', async () => {
      t = await boot();
      expect(await eventuallyTrue(async () => (await scheduled()).join() === SCHEDULED.join())).toBe(true);

      await relay.cut();
      await deleteKeys(direct, prefix);
      expect(await scheduled()).toEqual([]);
      await relay.restore();

      expect(await eventuallyTrue(async () => (await scheduled()).join() === SCHEDULED.join())).toBe(true);
    });

    it('a boot while Redis is down schedules them once it is reachable', async () => {
      await relay.cut();
      t = await boot();
      expect(await scheduled()).toEqual([]);
      await relay.restore();

      expect(await eventuallyTrue(async () => (await scheduled()).join() === SCHEDULED.join())).toBe(true);
    });
  },
);

/** Only this app's keys: other suites run on the same Redis. */
async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  const keys: string[] = [];
  for await (const batch of redis.scanStream({ match: `${prefix}:*`, count: 500 })) {
    keys.push(...(batch as string[]));
  }
  if (keys.length > 0) await redis.del(...keys);
}
