import { Module, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../../config/app-config';
import { DomainEventsModule } from '../events/domain-events.module';
import { BullMqJobQueue } from './bullmq-job-queue';
import { EnqueueOnlyJobQueue } from './enqueue-only-job-queue';
import { InProcessJobQueue } from './in-process-job-queue';
import { JobOutboxEntry } from './entities/job-outbox-entry.entity';
import { JobOutbox } from './job-outbox';
import { JobOutboxRepository } from './job-outbox.repository';
import { JobOutboxMetrics } from './job-outbox.metrics';
import { JobQueue } from './job-queue';
import { JobQueueMetrics } from './job-queue.metrics';
import { JobTelemetry } from './job-telemetry';
import { Metrics } from '../metrics/metrics';
import { MetricsModule } from '../metrics/metrics.module';

/**
 * The replica's job queue (BullMQ with `REDIS_URL`, in-process without), and the job outbox that
 * writes record their jobs in (JobOutbox); import it where jobs are defined.
 */
@Module({
  imports: [MetricsModule, DomainEventsModule, TypeOrmModule.forFeature([JobOutboxEntry])],
  providers: [
    JobQueueMetrics,
    JobOutboxRepository,
    JobOutbox,
    JobOutboxMetrics,
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
                retryBackoffMs: config.JOBS_RETRY_BACKOFF_MS,
              },
              telemetry,
            )
          : new InProcessJobQueue(undefined, telemetry, config.JOBS_RETRY_BACKOFF_MS);
        // PLAT_ROLE=api queues and runs nothing (config refuses it without REDIS_URL).
        return config.runsJobs ? queue : new EnqueueOnlyJobQueue(queue);
      },
    },
  ],
  exports: [JobQueue, JobOutbox],
})
export class JobsModule implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    private readonly jobs: JobQueue,
    private readonly outbox: JobOutbox,
  ) {}

  /** Every module has registered its handlers by now. */
  onApplicationBootstrap(): void {
    this.jobs.start();
  }

  /** Stops the outbox sweep, then takes no more jobs and lets running ones finish before the database closes. */
  async onModuleDestroy(): Promise<void> {
    await this.outbox.stop();
    await this.jobs.close();
  }
}
