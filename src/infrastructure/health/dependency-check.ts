import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { settleWithin } from '../../common/settle-within';
import { SharedRedis } from '../redis/shared-redis';

/** Each dependency gets this long to answer; the report fits in a probe's usual 2 s timeout. */
export const DEPENDENCY_CHECK_MS = 1000;
/** A report is reused this long (by the Clock): the route is anonymous and never rate-limited. */
export const DEPENDENCY_REPORT_REUSE_MS = 1000;

export type DependencyState =
  | { status: 'up'; latencyMs: number }
  | { status: 'down'; latencyMs: number; reason: 'error' | 'timeout' }
  | { status: 'not_configured' };

export interface DependencyReport {
  /** `ok` when every configured dependency answers, else `degraded`. */
  status: 'ok' | 'degraded';
  checkedAt: string;
  dependencies: { postgres: DependencyState; redis: DependencyState };
}

/**
 * The state of the dependencies every replica shares, PostgreSQL and Redis, as this replica reaches
 * them: `GET /health/dependencies` and the `postgres_up` gauge. Never a probe's answer: readiness
 * is about this replica only (docs/decisions/0119-readiness-without-shared-dependencies.md). One check
 * at a time, and its report is reused for DEPENDENCY_REPORT_REUSE_MS, so however often the route
 * is called it costs the database and Redis at most about one query a second.
 */
@Injectable()
export class DependencyCheck {
  private latest?: { startedAt: number; report: Promise<DependencyReport> };

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly redis: SharedRedis,
    private readonly clock: Clock,
  ) {}

  report(): Promise<DependencyReport> {
    const now = this.clock.now().getTime();
    if (this.latest && now - this.latest.startedAt < DEPENDENCY_REPORT_REUSE_MS) return this.latest.report;
    const report = this.check(now);
    this.latest = { startedAt: now, report };
    return report;
  }

  private async check(now: number): Promise<DependencyReport> {
    const redis = this.redis.commands;
    const [postgres, redisState] = await Promise.all([
      measure(() => this.dataSource.query('SELECT 1')),
      redis ? measure(() => redis.ping()) : Promise.resolve<DependencyState>({ status: 'not_configured' }),
    ]);
    const down = postgres.status === 'down' || redisState.status === 'down';
    return {
      status: down ? 'degraded' : 'ok',
      checkedAt: new Date(now).toISOString(),
      dependencies: { postgres, redis: redisState },
    };
  }
}

/** Runs `probe` within DEPENDENCY_CHECK_MS; a failure's text is not reported (it may name hosts). */
async function measure(probe: () => Promise<unknown>): Promise<DependencyState> {
  const started = performance.now();
  const outcome = await settleWithin(
    probe().then(
      () => 'up' as const,
      () => 'error' as const,
    ),
    DEPENDENCY_CHECK_MS,
    'timeout' as const,
  );
  const latencyMs = Math.round((performance.now() - started) * 10) / 10;
  return outcome === 'up' ? { status: 'up', latencyMs } : { status: 'down', latencyMs, reason: outcome };
}
