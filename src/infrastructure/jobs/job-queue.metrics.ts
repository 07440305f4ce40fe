import { Injectable, OnModuleInit } from '@nestjs/common';
import { Metrics } from '../metrics/metrics';
import { JobQueue } from './job-queue';

/**
 * Queue depth per job kind, read at scrape time (`all` on BullMQ: the shared queue and every bounded
 * kind's own together).
 */
@Injectable()
export class JobQueueMetrics implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueue,
    private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    this.metrics.gauge('jobs_queue_depth', 'Jobs waiting, delayed or running', ['kind'], async (gauge) => {
      // A Redis that cannot answer leaves the last value; the scrape itself never fails on it.
      const depths = await this.jobs.depth().catch(() => ({}));
      for (const [kind, depth] of Object.entries(depths)) gauge.set({ kind }, depth);
    });
  }
}
