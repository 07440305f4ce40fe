import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { Metrics } from '../metrics/metrics';
import { OutboxBacklog, registerOutboxBacklog } from '../metrics/outbox-backlog';

/**
 * The job outbox's backlog as `plat_outbox_*{outbox="job_outbox"}`: jobs recorded whose handler has
 * not succeeded yet, those that failed for good included. A row is deleted once its job ran, so the
 * table is the backlog itself.
 */
@Injectable()
export class JobOutboxMetrics implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly metrics: Metrics,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    registerOutboxBacklog(this.metrics, this.clock, 'job_outbox', async () => {
      const [row] = await this.dataSource.query<OutboxBacklog[]>(
        'SELECT count(*)::int AS pending, min(created_at) AS oldest FROM job_outbox',
      );
      return row;
    });
  }
}
