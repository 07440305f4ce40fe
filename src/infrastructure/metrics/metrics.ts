import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { AppConfig } from '../../config/app-config';

type Collect = (gauge: Gauge<string>) => void | Promise<void>;

/**
 * The replica's Prometheus registry. Any module registers its own series here
 * (`counter`, `histogram`, `gauge` with a collect callback run at scrape time, e.g. queue depths);
 * METRICS_PORT decides whether anything scrapes them (MetricsServer). Each app has a registry of
 * its own, not prom-client's global one, so two apps in one process (tests) never collide.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  /** Whether the series are served (METRICS_PORT set); off, recording on the hot path is skipped. */
  readonly enabled: boolean;
  private readonly collectors = new Map<string, Collect[]>();

  constructor(config: AppConfig) {
    this.enabled = config.METRICS_PORT !== undefined;
    // Process metrics: CPU, memory, heap, event-loop lag, GC, handles.
    if (this.enabled) collectDefaultMetrics({ register: this.registry });
  }

  counter<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    return this.existing(name) ?? new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  histogram<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    buckets: number[],
  ): Histogram<L> {
    return (
      this.existing(name) ?? new Histogram({ name, help, labelNames, buckets, registers: [this.registry] })
    );
  }

  /**
   * A gauge whose values `collect` sets when Prometheus scrapes (never on the request path). Several
   * modules may feed one series, each under its own labels (`plat_outbox_pending{outbox}`): every
   * `collect` given for the name runs.
   */
  gauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    collect: (gauge: Gauge<L>) => void | Promise<void>,
  ): Gauge<L> {
    const collectors = this.collectors.get(name) ?? [];
    collectors.push(collect as Collect);
    this.collectors.set(name, collectors);
    return (
      this.existing(name) ??
      new Gauge<L>({
        name,
        help,
        labelNames,
        registers: [this.registry],
        async collect() {
          await Promise.all(collectors.map((each) => each(this as Gauge<string>)));
        },
      })
    );
  }

  /** The text exposition format, and its content type. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /** A module registering twice (two instances, a re-run init) gets the same series back. */
  private existing<M>(name: string): M | undefined {
    return this.registry.getSingleMetric(name) as M | undefined;
  }
}
