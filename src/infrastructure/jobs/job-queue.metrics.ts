import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { Metrics } from '../metrics/metrics';
import { JobQueue, WaitingJobs } from './job-queue';

/** Two gauges read one backlog per scrape: a read younger than this is reused. */
const WAITING_READ_REUSE_MS = 1000;

/**
 * Queue depth per job kind (`all` on BullMQ, which counts the one shared queue), and per kind the
 * jobs due but not started and how long the oldest has waited, read at scrape time
 * (docs/decisions/traces-and-job-metrics.md).
 */
@Injectable()
export class JobQueueMetrics implements OnModuleInit {
  private lastRead: { at: number; waiting: Promise<Record<string, WaitingJobs>> } | null = null;

  constructor(
    private readonly jobs: JobQueue,
    private readonly metrics: Metrics,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.metrics.gauge('jobs_queue_depth', 'Jobs waiting, delayed or running', ['kind'], async (gauge) => {
      // A Redis that cannot answer leaves the last value; the scrape itself never fails on it.
      const depths = await this.jobs.depth().catch(() => ({}));
      for (const [kind, depth] of Object.entries(depths)) gauge.set({ kind }, depth);
    });
    this.metrics.gauge('plat_jobs_waiting', 'Jobs due but not started, per kind', ['kind'], async (gauge) => {
      for (const [kind, waiting] of Object.entries(await this.waiting())) gauge.set({ kind }, waiting.count);
    });
    this.metrics.gauge(
      'plat_job_oldest_waiting_seconds',
      'How long the longest-waiting job of the kind has been due (0 when none waits)',
      ['kind'],
      async (gauge) => {
        const now = this.clock.now().getTime();
        for (const [kind, { oldestQueuedAt }] of Object.entries(await this.waiting())) {
          gauge.set({ kind }, oldestQueuedAt === null ? 0 : Math.max(0, (now - oldestQueuedAt) / 1000));
        }
      },
    );
  }

  /** The backlog, read once for both gauges of a scrape; an unreachable Redis leaves the last values. */
  private waiting(): Promise<Record<string, WaitingJobs>> {
    const now = Date.now();
    if (!this.lastRead || now - this.lastRead.at > WAITING_READ_REUSE_MS) {
      this.lastRead = { at: now, waiting: this.jobs.waiting().catch(() => ({})) };
    }
    return this.lastRead.waiting;
  }
}
