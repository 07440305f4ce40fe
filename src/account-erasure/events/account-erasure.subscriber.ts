import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobQueue } from '../../infrastructure/jobs/job-queue';
import { AccountErasuresService } from '../services/account-erasures.service';
import { ERASURE_SWEEP_EVERY_MS, ERASURE_SWEEP_JOB } from './account-erasure.events';

/**
 * Runs the erasure sweep every hour on the processes that run jobs; its state is the accounts'
 * `erasure_due_at` in PostgreSQL, so a lost or failed run is made good by the next one.
 */
@Injectable()
export class AccountErasureSubscriber implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueue,
    private readonly erasures: AccountErasuresService,
  ) {}

  onModuleInit(): void {
    this.jobs.handle(
      ERASURE_SWEEP_JOB,
      async () => {
        const sweep = await this.erasures.sweep();
        if (sweep.failed > 0) throw new Error(`${sweep.failed} account erasure(s) failed`);
      },
      { attempts: 3, backoffMs: 60_000 },
    );
    void this.jobs.every(ERASURE_SWEEP_JOB, ERASURE_SWEEP_EVERY_MS);
  }
}
