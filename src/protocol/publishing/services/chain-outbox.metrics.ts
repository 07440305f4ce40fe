import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock';
import { Metrics } from '../../../infrastructure/metrics/metrics';
import { registerOutboxBacklog } from '../../../infrastructure/metrics/outbox-backlog';
import { PublishingRepository } from '../publishing.repository';

/**
 * The chain publication outbox's backlog as `plat_outbox_*{outbox="chain_publications"}`: rows not
 * yet published. A row is deleted once its chain is published, so the table is the backlog itself
 * and one aggregate over it costs what the backlog is (nothing when healthy).
 */
@Injectable()
export class ChainOutboxMetrics implements OnModuleInit {
  constructor(
    private readonly repository: PublishingRepository,
    private readonly metrics: Metrics,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    registerOutboxBacklog(this.metrics, this.clock, 'chain_publications', () => this.repository.backlog());
  }
}
