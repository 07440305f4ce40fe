import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { Metrics } from './metrics';

/** The pg pool behind TypeORM, read at scrape time (looked up each time: the driver may replace it). */
@Injectable()
export class DatabasePoolMetrics implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    const pool = () => (this.dataSource.driver as unknown as { master?: Pool }).master;
    const gauge = (name: string, help: string, read: (pool: Pool) => number) =>
      this.metrics.gauge(name, help, [], (g) => {
        const current = pool();
        if (current) g.set(read(current));
      });
    gauge('db_pool_connections', 'Open connections of the database pool', (p) => p.totalCount);
    gauge('db_pool_idle_connections', 'Idle connections of the database pool', (p) => p.idleCount);
    gauge('db_pool_waiting_clients', 'Queries waiting for a pooled connection', (p) => p.waitingCount);
    gauge('db_pool_max_connections', 'Most connections the pool opens', (p) => p.options.max ?? 10);
  }
}
