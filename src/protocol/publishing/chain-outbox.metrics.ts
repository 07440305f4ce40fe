import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { Metrics } from '../../infrastructure/metrics/metrics';

/** The outbox's label: other outboxes report under the same series with their own. */
const OUTBOX = 'chain_publications';

/** Two gauges read one backlog per scrape: a read younger than this is reused. */
const READ_REUSE_MS = 1000;

interface Backlog {
  pending: number;
  oldest: Date | null;
}

/**
 * The chain publication outbox's backlog, read at scrape time (docs/decisions/traces-and-job-metrics.md):
 * `plat_outbox_pending` (rows not yet published) and `plat_outbox_oldest_seconds` (age of the
 * oldest). A row is deleted once its chain is published, so the table is the backlog itself and
 * one aggregate over it costs what the backlog is (nothing when healthy).
 */
@Injectable()
export class ChainOutboxMetrics implements OnModuleInit {
  private lastRead: { at: number; backlog: Promise<Backlog | null> } | null = null;

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
    const now = Date.now();
    if (!this.lastRead || now - this.lastRead.at > READ_REUSE_MS) {
      const read = this.dataSource
        .query<{ pending: number; oldest: Date | null }[]>(
          'SELECT count(*)::int AS pending, min(created_at) AS oldest FROM chain_publications',
        )
        .then(([row]) => row)
        .catch(() => null);
      this.lastRead = { at: now, backlog: read };
    }
    return this.lastRead.backlog;
  }
}
