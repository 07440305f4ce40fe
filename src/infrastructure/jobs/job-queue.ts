import type { TraceCarrier } from '../tracing/trace-context';

/** How a kind of job is retried when its handler throws. */
export interface JobRetry {
  /** Runs in all, the first included (default 5). */
  attempts?: number;
  /** First pause before a retry, doubled each time (default 1000 ms). */
  backoffMs?: number;
  /**
   * At most this many jobs of the kind run at once in a process (default unbounded); the others
   * wait their turn, without holding a slot of the other kinds. Unbounded kinds share BullMQ's
   * worker, which bounds them together with JOBS_CONCURRENCY.
   */
  concurrency?: number;
}

export interface AddedJob {
  /** A job with the same id that is still waiting makes this one a no-op (deduplication). */
  jobId?: string;
  /** Runs no earlier than this many milliseconds from now. */
  delayMs?: number;
  /**
   * The trace the job continues; default the active one. Code that queues work recorded earlier
   * (an outbox) passes the context stored with it.
   */
  trace?: TraceCarrier;
  /**
   * A job of the same `jobId` that failed for good is replaced instead of making this a no-op: the
   * job outbox hands on again what exhausted its retries (JobOutbox).
   */
  replaceFailed?: boolean;
}

/** Jobs of one kind that are due but not started. */
export interface WaitingJobs {
  count: number;
  /** When the longest-waiting of them was queued (epoch ms), or null when none waits. */
  oldestQueuedAt: number | null;
}

/** Which run of a job this is: the first is 1; `last` when no retry follows a failure. */
export interface JobAttempt {
  attempt: number;
  last: boolean;
}

/** A job kind's handler; `run` tells a last attempt, which may record a failure instead of throwing. */
export type JobHandler<T> = (data: T, run: JobAttempt) => Promise<void>;

/**
 * Background work that outlives the request that caused it (docs/architecture.md "Jobs"): BullMQ on
 * Redis when `REDIS_URL` is set, so a job survives a replica crash and runs on one replica; an
 * in-process queue with the same contract otherwise. Handlers must be idempotent: a job may run
 * more than once (retried after a failure or a crash).
 */
export abstract class JobQueue {
  /** Registers the handler of one kind of job; call it from `onModuleInit`. */
  abstract handle<T>(name: string, handler: JobHandler<T>, retry?: JobRetry): void;
  /** Queues one job of a registered kind. */
  abstract add<T>(name: string, data: T, options?: AddedJob): Promise<void>;
  /** Runs a job of the kind (no data) every `everyMs`, on one replica at a time. */
  abstract every(name: string, everyMs: number): Promise<void>;
  /** Jobs waiting, delayed or running, per kind (for metrics). */
  abstract depth(): Promise<Record<string, number>>;
  /** Jobs due but not started, per registered kind (zero included), for metrics. */
  abstract waiting(): Promise<Record<string, WaitingJobs>>;

  /** The Redis queues its jobs go to, the shared one first (none in process); for operators and tests. */
  queueNames(): string[] {
    return [];
  }
  /** Starts taking jobs; called once every handler is registered. */
  abstract start(): void;
  /** Stops taking jobs and waits for the ones running. */
  abstract close(): Promise<void>;
}

/**
 * How long shutdown waits for running jobs before it goes on: BullMQ hands a job cut short to
 * another replica; in process, a job cut short is retried by what drives it (an outbox, a sweep).
 */
export const JOB_CLOSE_PATIENCE_MS = 10_000;

export const DEFAULT_RETRY: Required<JobRetry> = { attempts: 5, backoffMs: 1000, concurrency: Infinity };
