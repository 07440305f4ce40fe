import { randomUUID } from 'node:crypto';
import { BullMqJobQueue } from '../../../src/infrastructure/jobs/bullmq-job-queue';
import { EnqueueOnlyJobQueue } from '../../../src/infrastructure/jobs/enqueue-only-job-queue';
import { InProcessJobQueue } from '../../../src/infrastructure/jobs/in-process-job-queue';

const REDIS_URL = process.env.REDIS_URL;

/**
 * A bounded kind's jobs wait on a queue of their own (`jobs.<kind>`), so what reads the queues
 * (jobs_queue_depth, the e2e tests of PLAT_ROLE) must see those queues too
 * (docs/decisions/0117-process-roles.md).
 */
(REDIS_URL ? describe : describe.skip)('BullMqJobQueue: its queues', () => {
  let jobs: EnqueueOnlyJobQueue | undefined;

  afterEach(() => jobs?.close());

  it('names the shared queue and each bounded kind’s own, and counts both in its depth', async () => {
    // Enqueue-only (an api process): nothing takes the jobs, so they stay counted.
    jobs = new EnqueueOnlyJobQueue(
      new BullMqJobQueue(REDIS_URL!, `plat:test:${randomUUID()}:jobs`, {
        concurrency: 4,
        lockMs: 5000,
        stalledCheckMs: 5000,
        maxStalled: 1,
      }),
    );
    jobs.handle('narrow', () => Promise.resolve(), { concurrency: 1 });
    jobs.handle('wide', () => Promise.resolve());
    jobs.start();
    expect(jobs.queueNames()).toEqual(['jobs', 'jobs.narrow']);
    await jobs.add('narrow', { n: 1 });
    await jobs.add('narrow', { n: 2 }, { delayMs: 60_000 });
    await jobs.add('wide', { n: 3 });
    expect(await jobs.depth()).toEqual({ all: 3 });
  });

  it('has no Redis queue in process', () => {
    expect(new InProcessJobQueue().queueNames()).toEqual([]);
  });
});
