import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobQueue } from '../../infrastructure/jobs/job-queue';
import { LinkPreviewResolutionService } from '../services/link-preview-resolution.service';

/** The job kind that resolves one normalized URL (LinkPreviewsService.resolveSoon queues it). */
export const RESOLVE_LINK_PREVIEW = 'link-previews.resolve';

export interface ResolveLinkPreviewJob {
  /** The normalized URL (normalizeLinkUrl). */
  url: string;
}

/**
 * Runs `link-previews.resolve` jobs: a few at once per process (fetches wait on other hosts, not
 * on us), three attempts a second, then four seconds apart; the last records the failure.
 */
@Injectable()
export class LinkPreviewsSubscriber implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueue,
    private readonly resolution: LinkPreviewResolutionService,
  ) {}

  onModuleInit(): void {
    this.jobs.handle<ResolveLinkPreviewJob>(
      RESOLVE_LINK_PREVIEW,
      (job, run) => this.resolution.resolve(job.url, run.last),
      { attempts: 3, backoffMs: 1000, concurrency: 4 },
    );
  }
}
