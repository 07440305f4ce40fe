import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { Metrics } from '../metrics/metrics';
import { registerOutboxBacklog } from '../metrics/outbox-backlog';
import { JobOutboxRepository } from './job-outbox.repository';

/**
 * The job outbox's backlog as `plat_outbox_*{outbox="job_outbox"}`: jobs recorded whose handler has
 * not succeeded yet, those that failed for good included. A row is deleted once its job ran, so the
 * table is the backlog itself.
 */
@Injectable()
export class JobOutboxMetrics implements OnModuleInit {
  constructor(
    private readonly repository: JobOutboxRepository,
    private readonly metrics: Metrics,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    registerOutboxBacklog(this.metrics, this.clock, 'job_outbox', () => this.repository.backlog());
  }
}
