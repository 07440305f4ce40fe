import { randomUUID } from 'node:crypto';
import { QueueEvents } from 'bullmq';
import { parseEntityId } from '../../../src/common/ids/entity-id';
import { BullMqJobQueue } from '../../../src/infrastructure/jobs/bullmq-job-queue';
import { JobQueue, JobRetry } from '../../../src/infrastructure/jobs/job-queue';
import {
  JobQueues,
  EXPORT_KIND_DATA,
  LINK_PREVIEW_KIND_DATA,
  MEDIA_ERASURE_KIND_DATA,
  MEDIA_PROBE_KIND_DATA,
  NOTIFICATION_KIND_DATA,
  REPEATING_KIND_DATA,
  WEBHOOK_KIND_DATA,
} from './support';
import { ANNOUNCE_POST } from '../../../src/notifications/events/post-announcements.subscriber';
import { Actor } from '../../support/actors';
import { RedisRelay } from '../rate-limit/support';
import { admit, bootSpaces, makePublic, newPost, newSpace, newTopic, SpacesTestApp } from '../posts/support';
import { eventually } from '../../support/eventually';

const REDIS_URL = process.env.REDIS_URL;

/**
 * A worker that dies mid-job loses nothing (docs/decisions/0117-process-roles.md), for every kind of job the service
 * registers (the media case alone: test/e2e/media/job-survives-replica-crash.e2e-spec.ts). Kinds
 * share one BullMQ queue, except those that bound their concurrency, which have a queue and a worker
 * of their own (`jobs.<kind>`: media.probe, the announcements); a job's claim lapses the same way on
 * each, and this checks that no kind escapes it (a kind retried once, like the sweeps, is still
 * handed on: a stalled job is not a failed attempt). An `api` process queues one job of every kind
 * (a post's announcement through the post's creation, the others directly); worker A
 * takes them all and hangs in each, then dies as far as Redis can tell (its connections are cut,
 * so it stops renewing its claims); worker B, booted afterwards, finds the lapsed claims and
 * completes every job with the service's real handlers.
 */
(REDIS_URL ? describe : describe.skip)(
  `every job kind taken by a worker that dies (BullMQ)${REDIS_URL ? '' : ' [skipped: needs REDIS_URL, a real Redis]'}`,
  () => {
    const queueSettings = {
      JOBS_REDIS_PREFIX: `plat:test:${randomUUID()}:jobs`,
      JOBS_LOCK_MS: '1000',
      JOBS_STALLED_CHECK_MS: '300',
    };
    // Each kind with its retry settings: a bounded kind's jobs are on its own queue.
    const kinds = new Map<string, JobRetry | undefined>();
    let relay: RedisRelay;
    let api: SpacesTestApp;
    let dying: BullMqJobQueue;
    let workerB: SpacesTestApp | undefined;
    let queues: JobQueues;
    let events: QueueEvents[] = [];
    const completed = new Set<string>();
    const failed: string[] = [];

    beforeAll(async () => {
      // Records the kinds the service registers, whatever module defines them, and how.
      const handle = jest.spyOn(BullMqJobQueue.prototype, 'handle');
      api = await bootSpaces({ env: { PLAT_ROLE: 'api', ...queueSettings } });
      for (const [kind, , retry] of handle.mock.calls) kinds.set(kind, retry);
      handle.mockRestore();
      relay = new RedisRelay(new URL(REDIS_URL!));
      await relay.start();
      // Completions on the shared queue and on each bounded kind's own.
      queues = JobQueues.of(api.app.get(JobQueue), REDIS_URL!, queueSettings.JOBS_REDIS_PREFIX);
      events = await queues.events(
        (jobId) => completed.add(jobId),
        (jobId, reason) => failed.push(`${jobId}: ${reason}`),
      );
    });

    afterAll(async () => {
      await Promise.all(events.map((listener) => listener.close()));
      await queues?.close();
      await workerB?.close();
      await dying?.close();
      await api?.close();
      await relay?.stop();
    });

    it('knows every kind the service registers', () => {
      expect([...kinds.keys()].sort()).toEqual(
        [
          ANNOUNCE_POST,
          ...Object.keys(MEDIA_PROBE_KIND_DATA),
          ...Object.keys(MEDIA_ERASURE_KIND_DATA),
          ...Object.keys(NOTIFICATION_KIND_DATA),
          ...Object.keys(LINK_PREVIEW_KIND_DATA),
          ...Object.keys(WEBHOOK_KIND_DATA),
          ...Object.keys(EXPORT_KIND_DATA),
          ...Object.keys(REPEATING_KIND_DATA),
        ].sort(),
      );
    });

    it('hands every job on to another worker, which completes it', async () => {
      // Worker A: takes every job and hangs in it, as a process frozen mid-job.
      const taken = new Map<string, string>();
      dying = new BullMqJobQueue(relay.url, queueSettings.JOBS_REDIS_PREFIX, {
        concurrency: 32,
        lockMs: Number(queueSettings.JOBS_LOCK_MS),
        stalledCheckMs: Number(queueSettings.JOBS_STALLED_CHECK_MS),
        maxStalled: 2,
      });
      for (const [kind, retry] of kinds) {
        dying.handle(
          kind,
          (data) => {
            taken.set(kind, JSON.stringify(data));
            return new Promise<void>(() => undefined);
          },
          retry,
        );
      }
      dying.start();

      // The api queues one job of every kind: the announcement through a post's creation.
      const owner = await Actor.create(api, { clock: () => api.clock.now() });
      const member = await Actor.create(api, { clock: () => api.clock.now() });
      expectStatusOk(await owner.signUp('olive', 'Olive Owner'));
      const space = (await newSpace(owner, 'Crash')).id;
      await makePublic(owner, space);
      await admit(owner, space, member);
      const topic = await newTopic(owner, space, 'Open', 'public');
      const post = parseEntityId('post', (await newPost(member, space, { topic, body: 'Kiln day' })).id)!;
      const jobIds = [post];
      const jobs = api.app.get(JobQueue);
      const direct = {
        ...MEDIA_PROBE_KIND_DATA,
        ...MEDIA_ERASURE_KIND_DATA,
        ...NOTIFICATION_KIND_DATA,
        ...LINK_PREVIEW_KIND_DATA,
        ...WEBHOOK_KIND_DATA,
        ...EXPORT_KIND_DATA,
        ...REPEATING_KIND_DATA,
      };
      for (const [kind, data] of Object.entries(direct)) {
        const jobId = `handed-on.${kind}`;
        await jobs.add(kind, data, { jobId });
        jobIds.push(jobId);
      }

      const everyKind = await eventually(
        () => [...taken.keys()].sort(),
        (seen) => seen.length === kinds.size,
      );
      expect(everyKind).toEqual([...kinds.keys()].sort());

      // A dies: no renewal of its claims from now on.
      await relay.stop();
      workerB = await bootSpaces({
        env: { PLAT_ROLE: 'worker', ...queueSettings },
        databaseUrl: api.databaseUrl,
      });

      const finished = await eventually(
        () => jobIds.filter((id) => completed.has(id)).sort(),
        (done) => done.length === jobIds.length,
      );
      expect(failed).toEqual([]);
      expect(finished).toEqual([...jobIds].sort());
      // The announcement's work is done: its fanout finished (the owner was told).
      const [fanout] = (await api.dataSource.query(
        'SELECT done_at FROM notification_fanouts WHERE key = $1',
        [`notify.post.created:${post}`],
      )) as { done_at: Date | null }[];
      expect(fanout?.done_at).toBeTruthy();
      // So is the announcement of the member's join, queued by the admission (its own job id).
      const joined = await eventually(
        async () =>
          (await api.dataSource.query('SELECT done_at FROM notification_fanouts WHERE key LIKE $1', [
            `notify.member.joined:${parseEntityId('space', space)}:%`,
          ])) as { done_at: Date | null }[],
        (rows) => rows.length === 1 && Boolean(rows[0].done_at),
      );
      expect(joined).toEqual([{ done_at: expect.any(Date) }]);
    });
  },
);

function expectStatusOk(response: { status: number; text: string }): void {
  if (response.status >= 300) throw new Error(`expected success, got ${response.status} ${response.text}`);
}
