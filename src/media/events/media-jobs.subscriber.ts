import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { JobQueue } from '../../infrastructure/jobs/job-queue';
import { MediaProcessingService } from '../services/processing/media-processing.service';
import { PROBE_JOB, ProbeJob, SWEEP_JOB } from './media.events';

/**
 * Handles the media module's jobs: the processing of an audio or video upload (BullMQ with
 * REDIS_URL, so a replica that dies mid-job leaves it to be retried elsewhere; in-process
 * otherwise), and the sweep, scheduled every MEDIA_SWEEP_MS
 * (docs/decisions/0142-a-records-module-breaks-a-module-cycle.md: job kinds live in events/).
 */
@Injectable()
export class MediaJobsSubscriber implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueue,
    private readonly processing: MediaProcessingService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    // A replica runs at most MEDIA_PROCESSING_CONCURRENCY tool runs at once, whatever the queue
    // holds (docs/decisions/0111-media-processing-containment.md).
    this.jobs.handle<ProbeJob>(PROBE_JOB, (job) => this.processing.process(job.mediaId), {
      attempts: 3,
      backoffMs: 2000,
      concurrency: this.config.MEDIA_PROCESSING_CONCURRENCY,
    });
    this.jobs.handle(SWEEP_JOB, async () => void (await this.processing.sweep()), { attempts: 1 });
    void this.jobs.every(SWEEP_JOB, this.config.MEDIA_SWEEP_MS);
  }
}
