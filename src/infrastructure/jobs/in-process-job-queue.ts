import { Logger } from '@nestjs/common';
import { settleWithin } from '../../common/settle-within';
import { requestScopes } from '../http/request-scope';
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

interface Kind {
  handler: JobHandler<unknown>;
  retry: Required<JobRetry>;
  /** Jobs of the kind running now, and those waiting for a turn (`retry.concurrency`), oldest first. */
  active: number;
  turns: { since: number; start: () => void }[];
}

/** One run of a job: what `run` needs again for a retry or a turn. */
interface Run {
  data: unknown;
  attempt: number;
  jobId?: string;
  trace?: TraceCarrier;
}

/**
 * The single-replica queue (no `REDIS_URL`): jobs run in this process with the same retries as on
 * BullMQ. Nothing survives a restart, which is why work that must not be lost (chain publication)
 * keeps its own record in PostgreSQL (an outbox) and uses jobs only to drive it.
 */
export class InProcessJobQueue extends JobQueue {
  private readonly logger = new Logger('Jobs');
  private readonly kinds = new Map<string, Kind>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly queued = new Map<string, number>();
  private readonly queuedIds = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    private readonly closePatienceMs = JOB_CLOSE_PATIENCE_MS,
    private readonly telemetry = JobTelemetry.none,
    /** First pause before a retry of the kinds that set none. */
    private readonly retryBackoffMs = DEFAULT_RETRY.backoffMs,
  ) {
    super();
  }

  handle<T>(name: string, handler: JobHandler<T>, retry: JobRetry = {}): void {
    this.kinds.set(name, {
      handler: handler as JobHandler<unknown>,
      retry: { ...DEFAULT_RETRY, backoffMs: this.retryBackoffMs, ...retry },
      active: 0,
      turns: [],
    });
  }

  async add<T>(name: string, data: T, options: AddedJob = {}): Promise<void> {
    const kind = this.kindOf(name);
    if (options.jobId !== undefined) {
      const key = `${name}:${options.jobId}`;
      if (this.queuedIds.has(key)) return;
      this.queuedIds.add(key);
    }
    this.count(name, 1);
    const trace = options.trace ?? this.telemetry.capture();
    this.later(options.delayMs ?? 0, () =>
      this.run(name, kind, { data, attempt: 1, jobId: options.jobId, trace }),
    );
  }

  every(name: string, everyMs: number): Promise<void> {
    const kind = this.kindOf(name);
    const timer = setInterval(() => {
      // A run still going is not started twice.
      if ((this.queued.get(name) ?? 0) > 0 || this.stopped) return;
      this.count(name, 1);
      void this.run(name, kind, { data: undefined, attempt: kind.retry.attempts });
    }, everyMs);
    timer.unref();
    this.timers.add(timer);
    return Promise.resolve();
  }

  depth(): Promise<Record<string, number>> {
    return Promise.resolve(Object.fromEntries(this.queued));
  }

  /** In process, only a kind that bounds its concurrency has jobs waiting: for a turn. */
  waiting(): Promise<Record<string, WaitingJobs>> {
    const waiting: Record<string, WaitingJobs> = {};
    for (const [name, kind] of this.kinds) {
      waiting[name] = { count: kind.turns.length, oldestQueuedAt: kind.turns[0]?.since ?? null };
    }
    return Promise.resolve(waiting);
  }

  start(): void {
    // Jobs run as they are added.
  }

  /** Stops timers and waits for the jobs running now, at most `closePatienceMs`. */
  async close(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await settleWithin(
      Promise.allSettled([...this.running]).then(() => undefined),
      this.closePatienceMs,
      undefined,
    );
  }

  private run(name: string, kind: Kind, run: Run): Promise<void> {
    if (kind.active >= kind.retry.concurrency) {
      // Waits outside `running`: a closing queue drops it, as it drops everything not started.
      kind.turns.push({ since: Date.now(), start: () => void this.run(name, kind, run) });
      return Promise.resolve();
    }
    kind.active += 1;
    const { attempt, jobId } = run;
    const last = attempt >= kind.retry.attempts;
    const job = this.telemetry
      .run({ kind: name, attempt, last, trace: run.trace, system: 'in-process' }, () =>
        kind.handler(run.data, { attempt, last }),
      )
      .then(() => this.finish(name, jobId))
      .catch((error: unknown) => {
        if (last || this.stopped) {
          this.logger.error(`job ${name} failed for good after ${attempt} attempt(s): ${String(error)}`);
          return this.finish(name, jobId);
        }
        this.logger.warn(`job ${name} failed (attempt ${attempt}), retrying: ${String(error)}`);
        this.later(kind.retry.backoffMs * 2 ** (attempt - 1), () =>
          this.run(name, kind, { ...run, attempt: attempt + 1 }),
        );
      })
      .finally(() => {
        this.running.delete(job);
        kind.active -= 1;
        if (!this.stopped) kind.turns.shift()?.start();
      });
    this.running.add(job);
    return job;
  }

  private later(delayMs: number, work: () => Promise<void>): void {
    if (this.stopped) return;
    // Outside the request that queued it, as on BullMQ: a job's statements and commits are not the
    // request's (RequestWrites, log lines; docs/decisions/0162-webhook-delivery-state-in-postgresql.md).
    const timer = requestScopes.exit(() =>
      setTimeout(() => {
        this.timers.delete(timer);
        void work();
      }, delayMs),
    );
    timer.unref();
    this.timers.add(timer);
  }

  private finish(name: string, jobId?: string): void {
    this.count(name, -1);
    if (jobId !== undefined) this.queuedIds.delete(`${name}:${jobId}`);
  }

  private count(name: string, delta: number): void {
    this.queued.set(name, (this.queued.get(name) ?? 0) + delta);
  }

  private kindOf(name: string): Kind {
    const kind = this.kinds.get(name);
    if (!kind) throw new Error(`no handler for job ${name}`);
    return kind;
  }
}
