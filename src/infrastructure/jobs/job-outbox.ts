import { Injectable, Logger, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { settleWithin } from '../../common/settle-within';
import { AppConfig } from '../../config/app-config';
import { DomainEvents } from '../events/domain-events.service';
import { captureTraceContext } from '../tracing/trace-context';
import { JobOutboxRepository, type OutboxEntry } from './job-outbox.repository';
import { JobHandler, JobQueue, JobRetry } from './job-queue';

/** Where a queued job's data names its outbox row (removed before the handler sees the data). */
const OUTBOX_FIELD = '_outbox';
/** A hand-off that takes longer is left to the sweep (a Redis that hangs must not hold a request). */
const HANDOFF_PATIENCE_MS = 1000;
const SWEEP_BATCH = 100;

type Entry = OutboxEntry;

/** A job recorded in a transaction: handed to the queue once it commits. */
class JobRecorded {
  constructor(readonly entry: Entry) {}
}

/**
 * The transactional outbox of jobs (docs/decisions/0125-no-background-work-lost.md): a write records
 * the jobs it causes in `job_outbox` inside its own transaction (`record`), and the row is handed
 * to the queue right after commit and, until the job's handler has succeeded and deleted it, again
 * by the sweep of processes that run jobs, once its lease since the last hand-off is over. So a
 * Redis outage at commit, an answer lost after commit, a Redis that restarted empty or a job that
 * exhausted its retries during a PostgreSQL outage delays the work but never drops it. Handlers
 * must be idempotent: a job may run again (handed on while it was still running elsewhere, or its
 * row's delete failed).
 */
@Injectable()
export class JobOutbox implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('JobOutbox');
  private timer?: NodeJS.Timeout;
  private sweeping: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly repository: JobOutboxRepository,
    private readonly jobs: JobQueue,
    private readonly events: DomainEvents,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.events.afterCommit(JobRecorded, (event) => this.handOnAfterCommit(event.entry));
  }

  /** The sweep runs in processes that run jobs (PLAT_ROLE worker or all). */
  onApplicationBootstrap(): void {
    if (!this.config.runsJobs) return;
    this.timer = setInterval(() => void this.sweepAll(), this.config.JOB_OUTBOX_SWEEP_MS);
    this.timer.unref();
  }

  /** Stops the sweep and waits for the one running; before the queue closes (JobsModule). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.sweeping;
  }

  /**
   * Registers the handler of a kind whose jobs are recorded here: it runs the handler, then
   * deletes the job's row (jobs queued without a row, before this outbox, just run).
   */
  handle<T extends object>(kind: string, handler: JobHandler<T>, retry?: JobRetry): void {
    this.jobs.handle<Record<string, unknown>>(
      kind,
      async (stored, run) => {
        const { [OUTBOX_FIELD]: id, ...data } = stored ?? {};
        await handler(data as T, run);
        if (id !== undefined) await this.repository.delete(id);
      },
      retry,
    );
  }

  /**
   * Records a job of `kind` in the caller's transaction (one statement); it is queued once the
   * transaction commits. `jobId` deduplicates on the queue; `delayMs` defers it from now.
   */
  async record<T extends object>(
    manager: EntityManager,
    kind: string,
    data: T,
    options: { jobId?: string; delayMs?: number } = {},
  ): Promise<void> {
    const now = this.clock.now();
    const runAt = new Date(now.getTime() + (options.delayMs ?? 0));
    const handoffAt = new Date(runAt.getTime() + this.config.JOB_OUTBOX_LEASE_MS);
    const trace = captureTraceContext() ?? null;
    const id = await this.repository.record(
      { kind, data, jobId: options.jobId ?? null, trace, runAt, handoffAt, createdAt: now },
      manager,
    );
    const entry: Entry = {
      id,
      kind,
      data: data as Record<string, unknown>,
      jobId: options.jobId ?? null,
      trace,
      runAt,
    };
    await this.events.emit(manager, new JobRecorded(entry));
  }

  /** Hands on, batch after batch, what is due; how many rows it took. */
  async sweepAll(): Promise<number> {
    if (this.sweeping || this.stopped) return 0;
    let total = 0;
    this.sweeping = (async () => {
      for (;;) {
        const { taken, failed } = await this.sweep();
        total += taken;
        if (taken < SWEEP_BATCH || failed > 0 || this.stopped) return;
      }
    })()
      .catch((error: Error) => this.logger.warn(`job outbox sweep failed: ${error.message}`))
      .finally(() => (this.sweeping = null));
    await this.sweeping;
    return total;
  }

  /** Claims due rows (skipping those another process holds), pushes their lease on, hands them on. */
  private async sweep(): Promise<{ taken: number; failed: number }> {
    const now = this.clock.now();
    const claimed = await this.repository.claimDue(
      now,
      new Date(now.getTime() + this.config.JOB_OUTBOX_LEASE_MS),
      SWEEP_BATCH,
    );
    const handed = await Promise.all(claimed.map((entry) => this.handOn(entry, true)));
    const failed = claimed.filter((_, index) => !handed[index]);
    if (failed.length > 0) await this.dueAgain(failed.map((entry) => entry.id));
    return { taken: claimed.length, failed: failed.length };
  }

  /** Right after commit; a hand-off that fails makes the row due for the next sweep. */
  private async handOnAfterCommit(entry: Entry): Promise<void> {
    if (await this.handOn(entry, false)) return;
    await this.dueAgain([entry.id]);
  }

  /**
   * Queues the row's job; true once the queue holds it. A hand-off by the sweep replaces a job of
   * the same id that failed for good (kept by the queue, it would make the add a no-op).
   */
  private async handOn(entry: Entry, again: boolean): Promise<boolean> {
    const adding = this.jobs
      .add(
        entry.kind,
        { ...entry.data, [OUTBOX_FIELD]: entry.id },
        {
          jobId: entry.jobId ?? `outbox-${entry.id}`,
          delayMs: Math.max(0, new Date(entry.runAt).getTime() - this.clock.now().getTime()),
          trace: entry.trace ?? undefined,
          replaceFailed: again,
        },
      )
      .then(
        () => true,
        (error: Error) => {
          this.logger.warn(`${entry.kind} job ${entry.id} left to the outbox sweep: ${error.message}`);
          return false;
        },
      );
    return settleWithin(adding, HANDOFF_PATIENCE_MS, false);
  }

  private async dueAgain(ids: string[]): Promise<void> {
    await this.repository.dueAgain(ids, this.clock.now()).catch(() => undefined); // the lease brings it back all the same
  }
}
