import { Module } from '@nestjs/common';
import { BuildInfoMetrics } from './build-info.metrics';
import { DatabasePoolMetrics } from './database-pool.metrics';
import { HttpMetrics } from './http-metrics';
import { Metrics } from './metrics';
import { MetricsServer } from './metrics-server';
import { RedisMetrics } from './redis.metrics';

/**
 * Prometheus metrics (docs/decisions/0064-observability-metrics-traceparent-and-hpa.md): import it and inject `Metrics` to register series of a
 * module's own. Served by MetricsServer on METRICS_PORT only.
 */
@Module({
  providers: [Metrics, HttpMetrics, MetricsServer, DatabasePoolMetrics, RedisMetrics, BuildInfoMetrics],
  exports: [Metrics, HttpMetrics, MetricsServer],
})
export class MetricsModule {}
