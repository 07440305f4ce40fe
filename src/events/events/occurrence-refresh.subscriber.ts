import { Injectable, Logger, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { JobQueue } from '../../infrastructure/jobs/job-queue';
import { OccurrencesService } from '../services/occurrences.service';

export const OCCURRENCE_REFRESH = 'events.occurrence-refresh';
/** The horizon moves hourly; it reaches 460 days ahead, so a missed run costs nothing visible. */
export const OCCURRENCE_REFRESH_MS = 3_600_000;

/**
 * The scheduled refresh of the materialized occurrences (design.md §12 "Speed"): a repeating job
 * on the JobQueue (BullMQ on Redis, one replica per interval; in-process without Redis), plus one
 * run at boot. Several replicas running it at once serialize on the horizon row.
 */
@Injectable()
export class OccurrenceRefreshSubscriber implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger(OccurrenceRefreshSubscriber.name);

  constructor(
    private readonly jobs: JobQueue,
    private readonly occurrences: OccurrencesService,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.jobs.handle(OCCURRENCE_REFRESH, () => this.run(), { attempts: 3 });
  }

  onApplicationBootstrap(): void {
    const scheduled = Promise.all([
      this.jobs.every(OCCURRENCE_REFRESH, OCCURRENCE_REFRESH_MS),
      this.jobs.add(OCCURRENCE_REFRESH, {}, { jobId: `${OCCURRENCE_REFRESH}.boot` }),
    ]);
    scheduled.catch((error: Error) => this.logger.warn(`occurrence refresh not scheduled: ${error.message}`));
  }

  run(): Promise<void> {
    return this.occurrences.refresh(this.clock.now());
  }
}
