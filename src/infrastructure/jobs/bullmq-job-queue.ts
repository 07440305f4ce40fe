import { Logger } from '@nestjs/common';
import { Job, Queue, Worker } from 'bullmq';
import Redis from 'ioredis';
import { settleWithin } from '../../common/settle-within';
import { REDIS_DISCONNECT_PATIENCE_MS } from '../redis/shared-redis';
import type { TraceCarrier } from '../tracing/trace-context';
import {
  AddedJob,
  DEFAULT_RETRY,
  JOB_CLOSE_PATIENCE_MS,
  JobHandler,
  JobQueue,
  JobRetry,
  WaitingJobs,
} from './job-queue';
import { JobTelemetry } from './job-telemetry';

const QUEUE_NAME = 'jobs';

/** Where a job's data carries the trace it continues (removed before the handler sees the data). */
const TRACE_FIELD = '_trace';

/** A scrape reads at most this many waiting jobs per queue: a bounded Redis script, whatever the backlog. */
const WAITING_SCAN_LIMIT = 10_000;

/**
 * Per job name among the oldest ARGV[2] waiting jobs (the `wait` list's tail, then `prioritized`):
 * how many, and the earliest `timestamp + delay` (when each was due). Flat: name, count, oldest, …
 */
const WAITING_SCRIPT = `
local limit = tonumber(ARGV[2])
local ids = redis.call('LRANGE', KEYS[1], -limit, -1)
for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, limit - 1)) do table.insert(ids, id) end
local counts, oldest, names = {}, {}, {}
for _, id in ipairs(ids) do
  local job = redis.call('HMGET', ARGV[1] .. id, 'name', 'timestamp', 'delay')
  local name = job[1]
  if name then
    local due = (tonumber(job[2]) or 0) + (tonumber(job[3]) or 0)
    if not counts[name] then counts[name] = 0; oldest[name] = due; table.insert(names, name) end
    counts[name] = counts[name] + 1
    if due < oldest[name] then oldest[name] = due end
  end
end
local out = {}
for _, name in ipairs(names) do
  table.insert(out, name); table.insert(out, counts[name]); table.insert(out, tostring(oldest[name]))
end
return out`;

/** How a replica's worker takes jobs (AppConfig JOBS_*). */
export interface WorkerSettings {
  concurrency: number;
  /** A running job's claim, renewed every half of it; it lapses when the replica dies. */
  lockMs: number;
  /** How often lapsed claims are looked for; their jobs go back to waiting. */
  stalledCheckMs: number;
  /** Times a job may be handed on that way before it fails. */
  maxStalled: number;
  /** First pause before a retry of the kinds that set none (default DEFAULT_RETRY's). */
  retryBackoffMs?: number;
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
 * (which would otherwise give one kind every slot of JOBS_CONCURRENCY;
 * docs/decisions/0111-media-processing-containment.md). A job survives the replica that queued it; one
 * taken by a replica that dies is stalled and BullMQ gives it to another worker. Repeating jobs
 * are job schedulers, so they run once per interval across all replicas.
 */
export class BullMqJobQueue extends JobQueue {
  private readonly logger = new Logger('Jobs');
  private readonly kinds = new Map<string, Kind>();
  private readonly queue: Queue;
  private readonly workers: Worker[] = [];
  private readonly connections: Redis[] = [];
  /** The shared queue's (non-blocking) connection, also used to read the waiting jobs. */
  private readonly commands: Redis;
  /** The repeating kinds of this process and their interval, registered again on every reconnect. */
  private readonly schedules = new Map<string, number>();
  private closed = false;

  constructor(
    private readonly redisUrl: string,
    private readonly prefix: string,
    private readonly settings: WorkerSettings,
    private readonly telemetry = JobTelemetry.none,
  ) {
    super();
    this.commands = this.connection(false);
    this.queue = new Queue(QUEUE_NAME, { connection: this.commands, prefix });
    this.queue.on('error', (error) => this.logger.warn(`queue: ${error.message}`));
  }

  handle<T>(name: string, handler: JobHandler<T>, retry: JobRetry = {}): void {
    const backoffMs = this.settings.retryBackoffMs ?? DEFAULT_RETRY.backoffMs;
    const settings = { ...DEFAULT_RETRY, backoffMs, ...retry };
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
    const trace = options.trace ?? this.telemetry.capture();
    if (options.replaceFailed && options.jobId !== undefined) {
      const failed = await queue.getJob(options.jobId);
      if (failed && (await failed.isFailed())) await failed.remove();
    }
    await queue.add(name, withTrace(data, trace), {
      jobId: options.jobId,
      delay: options.delayMs,
      attempts: retry.attempts,
      backoff: { type: 'exponential', delay: retry.backoffMs },
      removeOnComplete: true,
      removeOnFail: 1000,
    });
  }

  /**
   * Registers the job scheduler now and again whenever a connection is (re)established: a Redis
   * that restarted empty, or that was down at boot, gets it back without a replica restart
   * (docs/decisions/0125-no-background-work-lost.md). A Redis unreachable now is not an error here.
   */
  async every(name: string, everyMs: number): Promise<void> {
    this.kindOf(name);
    this.schedules.set(name, everyMs);
    await this.schedule(name, everyMs).catch((error: Error) =>
      this.logger.warn(`${name} scheduled once Redis is reachable: ${error.message}`),
    );
  }

  private async schedule(name: string, everyMs: number): Promise<void> {
    await this.kindOf(name).queue.upsertJobScheduler(
      name,
      { every: everyMs },
      {
        name,
        opts: { removeOnComplete: true, removeOnFail: 100 },
      },
    );
  }

  /** Every schedule again (upserts: idempotent), after a connection became ready. */
  private reschedule(): void {
    if (this.closed) return;
    for (const [name, everyMs] of this.schedules) {
      // A queue whose own connection is not ready yet reschedules when it is.
      this.schedule(name, everyMs).catch(() => undefined);
    }
  }

  async depth(): Promise<Record<string, number>> {
    let all = 0;
    for (const queue of this.queues()) {
      const counts = await queue.getJobCounts('waiting', 'delayed', 'active', 'prioritized');
      all += Object.values(counts).reduce((sum, count) => sum + count, 0);
    }
    return { all };
  }

  /** Reads each queue's oldest waiting jobs (WAITING_SCAN_LIMIT at most) in one script per queue. */
  async waiting(): Promise<Record<string, WaitingJobs>> {
    const waiting: Record<string, WaitingJobs> = {};
    for (const name of this.kinds.keys()) waiting[name] = { count: 0, oldestQueuedAt: null };
    for (const queue of this.queues()) {
      const flat = (await this.commands.eval(
        WAITING_SCRIPT,
        2,
        queue.keys.wait,
        queue.keys.prioritized,
        queue.toKey(''),
        WAITING_SCAN_LIMIT,
      )) as (string | number)[];
      for (let i = 0; i + 2 < flat.length; i += 3) {
        const name = String(flat[i]);
        const known = waiting[name] ?? { count: 0, oldestQueuedAt: null };
        const oldest = Number(flat[i + 2]);
        waiting[name] = {
          count: known.count + Number(flat[i + 1]),
          oldestQueuedAt: known.oldestQueuedAt === null ? oldest : Math.min(known.oldestQueuedAt, oldest),
        };
      }
    }
    return waiting;
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
    const { data, trace } = withoutTrace(job.data);
    const attempt = job.attemptsMade + 1;
    const last = attempt >= (job.opts.attempts ?? 1);
    await this.telemetry.run({ kind: job.name, attempt, last, trace, system: 'bullmq' }, () =>
      kind.handler(data, { attempt, last }),
    );
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
    if (!blocking) connection.on('ready', () => this.reschedule());
    this.connections.push(connection);
    return connection;
  }

  private kindOf(name: string): Kind {
    const kind = this.kinds.get(name);
    if (!kind) throw new Error(`no handler for job ${name}`);
    return kind;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The job's data with the trace it continues, when there is one and the data is an object. */
function withTrace<T>(data: T, trace: TraceCarrier | undefined): T {
  return trace && isRecord(data) ? { ...data, [TRACE_FIELD]: trace } : data;
}

/** The handler's data and the trace, apart (jobs queued without one have only data). */
function withoutTrace(stored: unknown): { data: unknown; trace?: TraceCarrier } {
  if (!isRecord(stored) || !isRecord(stored[TRACE_FIELD])) return { data: stored };
  const { [TRACE_FIELD]: trace, ...data } = stored;
  return { data, trace: trace as TraceCarrier };
}
