import { Module, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { BullMqJobQueue } from './bullmq-job-queue';
import { EnqueueOnlyJobQueue } from './enqueue-only-job-queue';
import { InProcessJobQueue } from './in-process-job-queue';
import { JobQueue } from './job-queue';
import { JobQueueMetrics } from './job-queue.metrics';
import { JobTelemetry } from './job-telemetry';
import { Metrics } from '../metrics/metrics';
import { MetricsModule } from '../metrics/metrics.module';

/** The replica's job queue (BullMQ with `REDIS_URL`, in-process without); import it where jobs are defined. */
@Module({
  imports: [MetricsModule],
  providers: [
    JobQueueMetrics,
    {
      provide: JobQueue,
      inject: [AppConfig, Metrics],
      useFactory: (config: AppConfig, metrics: Metrics): JobQueue => {
        const telemetry = new JobTelemetry(metrics);
        const queue = config.REDIS_URL
          ? new BullMqJobQueue(
              config.REDIS_URL,
              config.JOBS_REDIS_PREFIX,
              {
                concurrency: config.JOBS_CONCURRENCY,
                lockMs: config.JOBS_LOCK_MS,
                stalledCheckMs: config.JOBS_STALLED_CHECK_MS,
                maxStalled: config.JOBS_MAX_STALLED,
              },
              telemetry,
            )
          : new InProcessJobQueue(undefined, telemetry);
        // PLAT_ROLE=api queues and runs nothing (config refuses it without REDIS_URL).
        return config.runsJobs ? queue : new EnqueueOnlyJobQueue(queue);
      },
    },
  ],
  exports: [JobQueue],
})
export class JobsModule implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(private readonly jobs: JobQueue) {}

  /** Every module has registered its handlers by now. */
  onApplicationBootstrap(): void {
    this.jobs.start();
  }

  /** Stops taking jobs and lets running ones finish before the database closes. */
  async onModuleDestroy(): Promise<void> {
    await this.jobs.close();
  }
}
