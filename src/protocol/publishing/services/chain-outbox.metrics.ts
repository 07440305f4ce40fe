import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../../common/clock/clock';
import { Metrics } from '../../../infrastructure/metrics/metrics';
import { OutboxBacklog, registerOutboxBacklog } from '../../../infrastructure/metrics/outbox-backlog';

/**
 * The chain publication outbox's backlog as `plat_outbox_*{outbox="chain_publications"}`: rows not
 * yet published. A row is deleted once its chain is published, so the table is the backlog itself
 * and one aggregate over it costs what the backlog is (nothing when healthy).
 */
@Injectable()
export class ChainOutboxMetrics implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly metrics: Metrics,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    registerOutboxBacklog(this.metrics, this.clock, 'chain_publications', async () => {
      const [row] = await this.dataSource.query<OutboxBacklog[]>(
        'SELECT count(*)::int AS pending, min(created_at) AS oldest FROM chain_publications',
      );
      return row;
    });
  }
}
