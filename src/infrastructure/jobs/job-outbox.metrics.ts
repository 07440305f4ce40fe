import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { Metrics } from '../metrics/metrics';

const OUTBOX = 'job_outbox';

interface Backlog {
  pending: number;
  oldest: Date | null;
}

/**
 * The job outbox's backlog under the chain outbox's series (docs/decisions/0123-traces-and-job-metrics.md):
 * `plat_outbox_pending{outbox="job_outbox"}` (jobs recorded whose handler has not succeeded yet,
 * those that failed for good included) and `plat_outbox_oldest_seconds` (age of the oldest). A row
 * is deleted once its job ran, so the table is the backlog itself.
 */
@Injectable()
export class JobOutboxMetrics implements OnModuleInit {
  /** The read in flight: prom-client starts every gauge's collect at once, so both share it. */
  private reading: Promise<Backlog | null> | null = null;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly metrics: Metrics,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.metrics.gauge(
      'plat_outbox_pending',
      'Outbox rows whose work is not done yet',
      ['outbox'],
      async (g) => {
        const backlog = await this.backlog();
        if (backlog) g.set({ outbox: OUTBOX }, backlog.pending);
      },
    );
    this.metrics.gauge(
      'plat_outbox_oldest_seconds',
      'Age of the oldest outbox row whose work is not done yet (0 when none)',
      ['outbox'],
      async (g) => {
        const backlog = await this.backlog();
        if (!backlog) return;
        const age = backlog.oldest ? (this.clock.now().getTime() - backlog.oldest.getTime()) / 1000 : 0;
        g.set({ outbox: OUTBOX }, Math.max(0, age));
      },
    );
  }

  /** One query for both gauges; a database that cannot answer leaves the last values. */
  private backlog(): Promise<Backlog | null> {
    this.reading ??= this.dataSource
      .query<Backlog[]>('SELECT count(*)::int AS pending, min(created_at) AS oldest FROM job_outbox')
      .then(([row]) => row)
      .catch(() => null)
      .finally(() => (this.reading = null));
    return this.reading;
  }
}
