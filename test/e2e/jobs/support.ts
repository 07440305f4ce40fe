import { randomUUID } from 'node:crypto';
import { JobState, Queue, QueueEvents } from 'bullmq';
import Redis from 'ioredis';
import { JobQueue } from '../../../src/infrastructure/jobs/job-queue';
import { CHAIN_OUTBOX_SWEEP } from '../../../src/protocol/publishing/events/chain-outbox-sweep.subscriber';
import { ANNOUNCE_JOIN } from '../../../src/notifications/events/join-announcements.subscriber';
import { DELETE_FILES_JOB, PROBE_JOB, SWEEP_JOB } from '../../../src/media/events/media.events';
import { OCCURRENCE_REFRESH } from '../../../src/events/events/occurrence-refresh.subscriber';
import { RESOLVE_LINK_PREVIEW } from '../../../src/link-previews/events/link-previews.subscriber';
import { WEBHOOK_DELIVER, WEBHOOK_SWEEP } from '../../../src/webhooks/services/webhook-deliveries.service';
import { WEBHOOK_FANOUT } from '../../../src/webhooks/services/webhook-fanout.service';
import { ERASURE_SWEEP_JOB } from '../../../src/account-erasure/events/account-erasure.events';
import { EXPORT_BUILD_JOB, EXPORT_SWEEP_JOB } from '../../../src/exports/events/exports.events';
import { IMPORT_ANNOUNCE_JOB, IMPORT_RUN_JOB } from '../../../src/imports/events/imports.events';

/**
 * The data a job of each kind carries, for tests that queue one of every kind. A new kind fails
 * test/e2e/jobs/every-job-survives-worker-death until it is listed here (or arises from a write).
 */
export const MEDIA_PROBE_KIND_DATA: Record<string, unknown> = {
  // A media that does not exist (any more): the job finds nothing to do, which is its idempotence.
  [PROBE_JOB]: { mediaId: randomUUID() },
};

/** The files of erased media (0192-an-erasure-takes-the-persons-media-and-invites.md): none, nothing to delete. */
export const MEDIA_ERASURE_KIND_DATA: Record<string, unknown> = {
  [DELETE_FILES_JOB]: { media: [] },
};

/** Kinds queued with data of their own (not through a write in the test). */
export const NOTIFICATION_KIND_DATA: Record<string, unknown> = {
  // A space that does not exist (any more): nobody to tell, the fanout finishes empty.
  [ANNOUNCE_JOIN]: { spaceId: randomUUID(), memberDid: 'did:key:zGoneMember', at: new Date(0).toISOString() },
};

/** A link preview of an address the guard refuses at once: the job records the refusal and completes. */
export const LINK_PREVIEW_KIND_DATA: Record<string, unknown> = {
  [RESOLVE_LINK_PREVIEW]: { url: 'http://127.0.0.1:9/handed-on' },
};

/**
 * Webhooks: a fan-out of a space that does not exist (no subscription: it stores nothing) and an
 * attempt of a delivery that does not exist (nothing to take); both complete.
 */
export const WEBHOOK_KIND_DATA: Record<string, unknown> = {
  [WEBHOOK_FANOUT]: {
    messageId: 'msg_00000000000000000000000000000000',
    type: 'post.created',
    spaceId: randomUUID(),
    timestamp: new Date(0).toISOString(),
    subject: { postId: randomUUID() },
  },
  [WEBHOOK_DELIVER]: { deliveryId: randomUUID() },
};

/**
 * A build of an export, a run and an announcement of an import that do not exist: the job finds nothing to take,
 * which is its idempotence.
 */
export const EXPORT_KIND_DATA: Record<string, unknown> = {
  [EXPORT_BUILD_JOB]: { exportId: randomUUID() },
  [IMPORT_RUN_JOB]: { importId: randomUUID() },
  [IMPORT_ANNOUNCE_JOB]: { importId: randomUUID() },
};

/** Repeating kinds carry no data. */
export const REPEATING_KIND_DATA: Record<string, unknown> = {
  [SWEEP_JOB]: {},
  [WEBHOOK_SWEEP]: {},
  [CHAIN_OUTBOX_SWEEP]: {},
  [OCCURRENCE_REFRESH]: {},
  [ERASURE_SWEEP_JOB]: {},
  [EXPORT_SWEEP_JOB]: {},
};

/**
 * Every BullMQ queue a process's jobs go to, read as one: the shared queue and each bounded kind's
 * own (`JobRetry.concurrency`), named by the process's JobQueue itself so a new bounded kind is
 * covered without a test naming its queue.
 */
export class JobQueues {
  private constructor(
    readonly queues: Queue[],
    private readonly redis: Redis,
    private readonly redisUrl: string,
    private readonly prefix: string,
  ) {}

  static of(jobs: JobQueue, redisUrl: string, prefix: string): JobQueues {
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    const names = jobs.queueNames();
    if (names.length === 0) throw new Error('the process has no BullMQ queue (is REDIS_URL set?)');
    return new JobQueues(
      names.map((name) => new Queue(name, { connection: redis, prefix })),
      redis,
      redisUrl,
      prefix,
    );
  }

  get names(): string[] {
    return this.queues.map((queue) => queue.name);
  }

  /** BullMQ workers listening on each queue, by queue name. */
  async workers(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const queue of this.queues) counts[queue.name] = await queue.getWorkersCount();
    return counts;
  }

  /** The keys of the job schedulers (repeating jobs) of every queue, sorted. */
  async schedulers(): Promise<string[]> {
    const keys: string[] = [];
    for (const queue of this.queues) keys.push(...(await queue.getJobSchedulers()).map((s) => s.key));
    return keys.sort();
  }

  /** The kinds (job names) of the jobs in these states on every queue. */
  async kinds(states: JobState[]): Promise<string[]> {
    const kinds: string[] = [];
    for (const queue of this.queues) kinds.push(...(await queue.getJobs(states)).map((job) => job.name));
    return kinds;
  }

  /** Listens to completions and failures on every queue (`jobId` is unique across them in the tests). */
  async events(
    onCompleted: (jobId: string) => void,
    onFailed: (jobId: string, reason: string) => void,
  ): Promise<QueueEvents[]> {
    const listeners = this.queues.map(
      (queue) => new QueueEvents(queue.name, { connection: { url: this.redisUrl }, prefix: this.prefix }),
    );
    for (const events of listeners) {
      events.on('completed', ({ jobId }) => onCompleted(jobId));
      events.on('failed', ({ jobId, failedReason }) => onFailed(jobId, failedReason));
      await events.waitUntilReady();
    }
    return listeners;
  }

  async close(): Promise<void> {
    await Promise.all(this.queues.map((queue) => queue.close()));
    this.redis.disconnect();
  }
}
