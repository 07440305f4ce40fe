import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { JobOutbox } from '../../infrastructure/jobs/job-outbox';
import { SpaceImportAnnouncementService } from '../services/space-import-announcement.service';
import { SpaceImportsService } from '../services/space-imports.service';
import { IMPORT_ANNOUNCE_JOB, IMPORT_RUN_JOB, ImportAnnounceJob, ImportRunJob } from './imports.events';

/**
 * `imports.run`, recorded in the request's transaction (JobOutbox: no fault loses it); one at a
 * time per process, as an import writes many rows
 * (docs/decisions/0221-space-import-a-durable-job-through-the-owning-modules.md). `imports.announce`,
 * recorded as the import is marked done: the source's chains into the relay (0236).
 */
@Injectable()
export class ImportsSubscriber implements OnModuleInit {
  constructor(
    private readonly outbox: JobOutbox,
    private readonly imports: SpaceImportsService,
    private readonly announcement: SpaceImportAnnouncementService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.outbox.handle<ImportRunJob>(IMPORT_RUN_JOB, (job, run) => this.imports.run(job.importId, run), {
      attempts: 3,
      backoffMs: this.config.IMPORT_RETRY_BACKOFF_MS,
      concurrency: 1,
    });
    // Ingest only, each operation already verified once: retried soon (docs/decisions/0236).
    this.outbox.handle<ImportAnnounceJob>(
      IMPORT_ANNOUNCE_JOB,
      (job, run) => this.announcement.announce(job.importId, run),
      { attempts: 5, backoffMs: 1000, concurrency: 1 },
    );
  }
}
