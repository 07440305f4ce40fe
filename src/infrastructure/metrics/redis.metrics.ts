import { Injectable, OnModuleInit } from '@nestjs/common';
import { SharedRedis } from '../redis/shared-redis';
import { Metrics } from './metrics';

/** The shared Redis command connection, when REDIS_URL is set: up or not, and its connection errors. */
@Injectable()
export class RedisMetrics implements OnModuleInit {
  constructor(
    private readonly redis: SharedRedis,
    private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    const connection = this.redis.commands;
    if (!connection) return;
    this.metrics.gauge('redis_up', 'Whether the Redis command connection is ready (1) or not (0)', [], (g) =>
      g.set(connection.status === 'ready' ? 1 : 0),
    );
    const errors = this.metrics.counter(
      'redis_connection_errors_total',
      'Errors of the Redis command connection',
    );
    connection.on('error', () => errors.inc());
  }
}
