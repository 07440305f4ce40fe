import { Injectable, OnModuleInit } from '@nestjs/common';
import { Metrics } from '../metrics/metrics';
import { DependencyCheck } from './dependency-check';

/**
 * `postgres_up`, read at scrape time from the dependency report (`redis_up` is the Redis
 * connection's own, RedisMetrics). The alert on a shared outage reads these, not readiness.
 */
@Injectable()
export class DependencyMetrics implements OnModuleInit {
  constructor(
    private readonly dependencies: DependencyCheck,
    private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    this.metrics.gauge(
      'postgres_up',
      'Whether PostgreSQL answered this replica within 1 s (1) or not (0), at scrape time',
      [],
      async (gauge) => {
        const { postgres } = (await this.dependencies.report()).dependencies;
        gauge.set(postgres.status === 'up' ? 1 : 0);
      },
    );
  }
}
