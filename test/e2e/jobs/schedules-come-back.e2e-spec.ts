import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { CHAIN_OUTBOX_SWEEP } from '../../../src/protocol/publishing/events/chain-outbox-sweep.subscriber';
import { OCCURRENCE_REFRESH } from '../../../src/events/events/occurrence-refresh.subscriber';
import { SWEEP_JOB } from '../../../src/media/events/media.events';
import { bootApp, TestApp } from '../../support/app';
import { TcpRelay } from '../../support/network';
import { eventuallyTrue } from '../../support/eventually';
import { WEBHOOK_SWEEP } from '../../../src/webhooks/services/webhook-deliveries.service';

const REDIS_URL = process.env.REDIS_URL;
const SCHEDULED = [CHAIN_OUTBOX_SWEEP, OCCURRENCE_REFRESH, SWEEP_JOB, WEBHOOK_SWEEP].sort();

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
