import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobOutbox } from '../../infrastructure/jobs/job-outbox';
import { SpaceImportsService } from '../services/space-imports.service';
import { IMPORT_RUN_JOB, ImportRunJob } from './imports.events';

/**
 * `imports.run`, recorded in the request's transaction (JobOutbox: no fault loses it); one at a
 * time per process, as an import writes many rows
 * (docs/decisions/0221-space-import-a-durable-job-through-the-owning-modules.md).
 */
@Injectable()
export class ImportsSubscriber implements OnModuleInit {
  constructor(
    private readonly outbox: JobOutbox,
    private readonly imports: SpaceImportsService,
  ) {}

  onModuleInit(): void {
    this.outbox.handle<ImportRunJob>(IMPORT_RUN_JOB, (job, run) => this.imports.run(job.importId, run), {
      attempts: 3,
      backoffMs: 30_000,
      concurrency: 1,
    });
  }
}
