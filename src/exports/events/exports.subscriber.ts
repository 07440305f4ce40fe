import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobOutbox } from '../../infrastructure/jobs/job-outbox';
import { JobQueue } from '../../infrastructure/jobs/job-queue';
import { ExportsService } from '../services/exports.service';
import { EXPORT_BUILD_JOB, EXPORT_SWEEP_EVERY_MS, EXPORT_SWEEP_JOB, ExportBuildJob } from './exports.events';

/**
 * The exports module's jobs: `exports.build`, recorded in the request's transaction (JobOutbox: no
 * fault loses it), two at a time per process as builds are long; and the hourly `exports.sweep`
 * (docs/decisions/0212-one-export-at-a-time-built-by-a-durable-job.md,
 * docs/decisions/0213-export-expiry-and-signed-download.md).
 */
@Injectable()
export class ExportsSubscriber implements OnModuleInit {
  constructor(
    private readonly outbox: JobOutbox,
    private readonly jobs: JobQueue,
    private readonly exports: ExportsService,
  ) {}

  onModuleInit(): void {
    this.outbox.handle<ExportBuildJob>(
      EXPORT_BUILD_JOB,
      (job, run) => this.exports.build(job.exportId, run),
      {
        attempts: 3,
        backoffMs: 30_000,
        concurrency: 2,
      },
    );
    this.jobs.handle(
      EXPORT_SWEEP_JOB,
      async () => {
        await this.exports.sweep();
      },
      { attempts: 3, backoffMs: 60_000 },
    );
    void this.jobs.every(EXPORT_SWEEP_JOB, EXPORT_SWEEP_EVERY_MS);
  }
}
