import { Logger } from '@nestjs/common';
import { Job, Queue, Worker } from 'bullmq';
import Redis from 'ioredis';
import { settleWithin } from '../../common/settle-within';
import { REDIS_DISCONNECT_PATIENCE_MS } from '../redis/shared-redis';
import { AddedJob, DEFAULT_RETRY, JOB_CLOSE_PATIENCE_MS, JobHandler, JobQueue, JobRetry } from './job-queue';

const QUEUE_NAME = 'jobs';

/** How a replica's worker takes jobs (AppConfig JOBS_*). */
export interface WorkerSettings {
  concurrency: number;
  /** A running job's claim, renewed every half of it; it lapses when the replica dies. */
  lockMs: number;
  /** How often lapsed claims are looked for; their jobs go back to waiting. */
  stalledCheckMs: number;
  /** Times a job may be handed on that way before it fails. */
  maxStalled: number;
}

interface Kind {
  handler: JobHandler<unknown>;
  retry: Required<JobRetry>;
  /** The shared queue, or the kind's own when it bounds its concurrency. */
  queue: Queue;
}

/**
 * Jobs on Redis through BullMQ: one shared queue, a worker per replica, the job kind in the job's
 * name. A kind that bounds its concurrency (`JobRetry.concurrency`) has a queue of its own, whose
 * worker on each replica runs at most that many of its jobs at once, beside the shared worker
 * (which would otherwise give one kind every slot of JOBS_CONCURRENCY; issue 29 item 5,
 * docs/decisions/media-processing-containment.md). A job survives the replica that queued it; one
 * taken by a replica that dies is stalled and BullMQ gives it to another worker. Repeating jobs
 * are job schedulers, so they run once per interval across all replicas.
 */
export class BullMqJobQueue extends JobQueue {
  private readonly logger = new Logger('Jobs');
  private readonly kinds = new Map<string, Kind>();
  private readonly queue: Queue;
  private readonly workers: Worker[] = [];
  private readonly connections: Redis[] = [];
  private closed = false;

  constructor(
    private readonly redisUrl: string,
    private readonly prefix: string,
    private readonly settings: WorkerSettings,
  ) {
    super();
    this.queue = new Queue(QUEUE_NAME, { connection: this.connection(false), prefix });
    this.queue.on('error', (error) => this.logger.warn(`queue: ${error.message}`));
  }

  handle<T>(name: string, handler: JobHandler<T>, retry: JobRetry = {}): void {
    const settings = { ...DEFAULT_RETRY, ...retry };
    const queue = Number.isFinite(settings.concurrency) ? this.ownQueue(name) : this.queue;
    this.kinds.set(name, { handler: handler as JobHandler<unknown>, retry: settings, queue });
  }

  /** Starts this replica's workers once every kind is registered. */
  start(): void {
    // The shared worker also runs any job of a bounded kind found on the shared queue (queued
    // before that kind had its own).
    this.startWorker(this.queue.name, this.settings.concurrency);
    for (const kind of this.kinds.values()) {
      if (kind.queue !== this.queue) this.startWorker(kind.queue.name, kind.retry.concurrency);
    }
  }

  async add<T>(name: string, data: T, options: AddedJob = {}): Promise<void> {
    const { retry, queue } = this.kindOf(name);
    await queue.add(name, data, {
      jobId: options.jobId,
      delay: options.delayMs,
      attempts: retry.attempts,
      backoff: { type: 'exponential', delay: retry.backoffMs },
      removeOnComplete: true,
      removeOnFail: 1000,
    });
  }

  async every(name: string, everyMs: number): Promise<void> {
    await this.kindOf(name).queue.upsertJobScheduler(
      name,
      { every: everyMs },
      {
        name,
        opts: { removeOnComplete: true, removeOnFail: 100 },
      },
    );
  }

  async depth(): Promise<Record<string, number>> {
    let all = 0;
    for (const queue of this.queues()) {
      const counts = await queue.getJobCounts('waiting', 'delayed', 'active', 'prioritized');
      all += Object.values(counts).reduce((sum, count) => sum + count, 0);
    }
    return { all };
  }

  /** The shared queue and the own queue of every bounded kind registered so far. */
  override queueNames(): string[] {
    return this.queues().map((queue) => queue.name);
  }

  /**
   * Lets running jobs finish (at most JOB_CLOSE_PATIENCE_MS); a Redis that is not reachable has nothing
   * to wait for, so its connections are dropped first and the worker closes at once (its claims
   * lapse, and another replica runs what it held).
   */
  async close(): Promise<void> {
    this.closed = true;
    const unreachable = this.connections.some((connection) => connection.status !== 'ready');
    if (unreachable) {
      for (const connection of this.connections) connection.disconnect();
    }
    const closing = Promise.allSettled([
      ...this.workers.map((worker) => worker.close(unreachable)),
      ...this.queues().map((queue) => queue.close()),
    ]).then(() => undefined);
    await settleWithin(closing, JOB_CLOSE_PATIENCE_MS, undefined);
    for (const connection of this.connections) connection.disconnect();
  }

  /** The shared queue and every kind's own. */
  private queues(): Queue[] {
    return [
      this.queue,
      ...[...this.kinds.values()].map((kind) => kind.queue).filter((queue) => queue !== this.queue),
    ];
  }

  private ownQueue(name: string): Queue {
    const queue = new Queue(`${QUEUE_NAME}.${name}`, {
      connection: this.connection(false),
      prefix: this.prefix,
    });
    queue.on('error', (error) => this.logger.warn(`queue ${name}: ${error.message}`));
    return queue;
  }

  private startWorker(queueName: string, concurrency: number): void {
    const worker = new Worker(queueName, (job: Job) => this.process(job), {
      connection: this.connection(true),
      prefix: this.prefix,
      concurrency,
      lockDuration: this.settings.lockMs,
      stalledInterval: this.settings.stalledCheckMs,
      maxStalledCount: this.settings.maxStalled,
    });
    worker.on('error', (error) => this.logger.warn(`worker: ${error.message}`));
    worker.on('stalled', (jobId) =>
      this.logger.warn(`job ${jobId} was taken by a replica that stopped; it runs again`),
    );
    worker.on('failed', (job, error) =>
      this.logger.warn(
        `job ${job?.name ?? '?'} failed (attempt ${job?.attemptsMade ?? '?'}): ${error.message}`,
      ),
    );
    this.workers.push(worker);
  }

  private async process(job: Job): Promise<void> {
    const kind = this.kinds.get(job.name);
    if (!kind) throw new Error(`no handler for job ${job.name}`);
    await kind.handler(job.data);
  }

  /** BullMQ's blocking worker connection must retry forever (`maxRetriesPerRequest: null`). */
  private connection(blocking: boolean): Redis {
    const connection = new Redis(this.redisUrl, {
      maxRetriesPerRequest: blocking ? null : 1,
      enableOfflineQueue: blocking,
      lazyConnect: false,
      // BullMQ's own copies of a connection (its worker's blocking one) inherit this: once the
      // queue is closed none of them reconnects, even when Redis was gone and BullMQ's close hung.
      retryStrategy: (attempt) => (this.closed ? null : Math.min(attempt * 50, 2000)),
      disconnectTimeout: REDIS_DISCONNECT_PATIENCE_MS,
    });
    connection.on('error', () => undefined);
    this.connections.push(connection);
    return connection;
  }

  private kindOf(name: string): Kind {
    const kind = this.kinds.get(name);
    if (!kind) throw new Error(`no handler for job ${name}`);
    return kind;
  }
}
