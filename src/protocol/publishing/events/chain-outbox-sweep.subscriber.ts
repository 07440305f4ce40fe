import { Injectable, Logger, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { JobQueue } from '../../../infrastructure/jobs/job-queue';
import { ChainOutboxService } from '../services/chain-outbox.service';

export const CHAIN_OUTBOX_SWEEP = 'chain-outbox.sweep';

/** The repeating job that publishes what the outbox still holds (failed or orphaned publications). */
@Injectable()
export class ChainOutboxSweepSubscriber implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger(ChainOutboxSweepSubscriber.name);

  constructor(
    private readonly jobs: JobQueue,
    private readonly outbox: ChainOutboxService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    // A failed sweep is simply the next interval's work.
    this.jobs.handle(CHAIN_OUTBOX_SWEEP, () => this.sweepAll(), { attempts: 1 });
  }

  onApplicationBootstrap(): void {
    this.jobs
      .every(CHAIN_OUTBOX_SWEEP, this.config.CHAIN_OUTBOX_SWEEP_MS)
      .catch((error: Error) => this.logger.warn(`chain outbox sweep not scheduled: ${error.message}`));
  }

  /** Sweeps batch after batch until nothing is due. */
  async sweepAll(): Promise<void> {
    while ((await this.outbox.sweep()) > 0);
  }
}
