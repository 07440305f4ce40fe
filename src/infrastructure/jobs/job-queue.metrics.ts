import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { Metrics } from '../metrics/metrics';
import { JobQueue, WaitingJobs } from './job-queue';

/**
 * Queue depth per job kind (`all` on BullMQ: the shared queue and every bounded kind's own
 * together), and per kind the jobs due but not started and how long the oldest has waited, read at
 * scrape time (docs/decisions/0123-traces-and-job-metrics.md).
 */
@Injectable()
export class JobQueueMetrics implements OnModuleInit {
  /** The read in flight: prom-client starts every gauge's collect at once, so both share it. */
  private reading: Promise<Record<string, WaitingJobs>> | null = null;

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
    this.reading ??= this.jobs
      .waiting()
      .catch(() => ({}))
      .finally(() => (this.reading = null));
    return this.reading;
  }
}
