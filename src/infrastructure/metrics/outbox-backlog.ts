import { Clock } from '../../common/clock/clock';
import { Metrics } from './metrics';

/** What an outbox still has to do: its rows (each deleted once its work is done) and the oldest. */
export interface OutboxBacklog {
  pending: number;
  oldest: Date | null;
}

/**
 * An outbox's backlog under `plat_outbox_pending{outbox}` and `plat_outbox_oldest_seconds{outbox}`,
 * read at scrape time (docs/decisions/0123-traces-and-job-metrics.md). `read` is the owning module's
 * one aggregate over its own table; prom-client starts every gauge's collect at once, so both gauges
 * share one read per scrape, and a database that cannot answer leaves the last values.
 */
export function registerOutboxBacklog(
  metrics: Metrics,
  clock: Clock,
  outbox: string,
  read: () => Promise<OutboxBacklog>,
): void {
  let reading: Promise<OutboxBacklog | null> | null = null;
  const backlog = (): Promise<OutboxBacklog | null> =>
    (reading ??= read()
      .catch(() => null)
      .finally(() => (reading = null)));
  metrics.gauge(
    'plat_outbox_pending',
    'Outbox rows whose work is not done yet',
    ['outbox'],
    async (gauge) => {
      const current = await backlog();
      if (current) gauge.set({ outbox }, current.pending);
    },
  );
  metrics.gauge(
    'plat_outbox_oldest_seconds',
    'Age of the oldest outbox row whose work is not done yet (0 when none)',
    ['outbox'],
    async (gauge) => {
      const current = await backlog();
      if (!current) return;
      const age = current.oldest ? (clock.now().getTime() - current.oldest.getTime()) / 1000 : 0;
      gauge.set({ outbox }, Math.max(0, age));
    },
  );
}
