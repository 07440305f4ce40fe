import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { Metrics } from '../../infrastructure/metrics/metrics';

/** The outbox's label: other outboxes report under the same series with their own. */
const OUTBOX = 'chain_publications';

interface Backlog {
  pending: number;
  oldest: Date | null;
}

/**
 * The chain publication outbox's backlog, read at scrape time (docs/decisions/0123-traces-and-job-metrics.md):
 * `plat_outbox_pending` (rows not yet published) and `plat_outbox_oldest_seconds` (age of the
 * oldest). A row is deleted once its chain is published, so the table is the backlog itself and
 * one aggregate over it costs what the backlog is (nothing when healthy).
 */
@Injectable()
export class ChainOutboxMetrics implements OnModuleInit {
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
      .query<Backlog[]>('SELECT count(*)::int AS pending, min(created_at) AS oldest FROM chain_publications')
      .then(([row]) => row)
      .catch(() => null)
      .finally(() => (this.reading = null));
    return this.reading;
  }
}
