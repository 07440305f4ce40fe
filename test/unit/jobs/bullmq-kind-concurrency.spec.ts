import { randomUUID } from 'node:crypto';
import { BullMqJobQueue } from '../../../src/infrastructure/jobs/bullmq-job-queue';

const REDIS_URL = process.env.REDIS_URL;

/** Waits (for Redis round trips, not a clock) until `holds`, at most five seconds. */
async function until(holds: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!holds() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

/**
 * A kind's `concurrency` holds on BullMQ too (it used to bound only the in-process queue: BullMQ's
 * one worker gave a kind every JOBS_CONCURRENCY slot), and a bounded kind's waiting jobs do not hold
 * slots other kinds need (docs/decisions/0111-media-processing-containment.md).
 */
(REDIS_URL ? describe : describe.skip)('BullMqJobQueue: concurrency of one kind', () => {
  let jobs: BullMqJobQueue;

  afterEach(() => jobs?.close());

  it('runs at most `concurrency` jobs of the kind at once, while other kinds still run', async () => {
    jobs = new BullMqJobQueue(REDIS_URL!, `plat:test:${randomUUID()}:jobs`, {
      concurrency: 4,
      lockMs: 5000,
      stalledCheckMs: 5000,
      maxStalled: 1,
    });
    let running = 0;
    let most = 0;
    let finished = 0;
    const release: (() => void)[] = [];
    jobs.handle(
      'narrow',
      () =>
        new Promise<void>((resolve) => {
          running += 1;
          most = Math.max(most, running);
          release.push(() => {
            running -= 1;
            finished += 1;
            resolve();
          });
        }),
      { concurrency: 2 },
    );
    const others: number[] = [];
    jobs.handle<{ n: number }>('other', async (data) => void others.push(data.n));
    jobs.start();
    for (let n = 0; n < 6; n++) await jobs.add('narrow', { n });
    await until(() => running === 2);
    for (let n = 0; n < 3; n++) await jobs.add('other', { n });
    await until(() => others.length === 3);
    expect(others.sort()).toEqual([0, 1, 2]);
    expect(running).toBe(2);
    while (finished < 6) {
      await until(() => release.length > 0);
      release.shift()!();
    }
    expect(most).toBe(2);
    // The kind's own queue counts in the depth, and empties.
    let depth = await jobs.depth();
    for (let tries = 0; depth.all > 0 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      depth = await jobs.depth();
    }
    expect(depth).toEqual({ all: 0 });
  }, 20_000);
});
