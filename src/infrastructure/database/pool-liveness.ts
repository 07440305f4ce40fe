import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Client } from 'pg';
import { AfterQueryEvent, DataSource, EntitySubscriberInterface } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { settleWithin } from '../../common/settle-within';
import { AppConfig } from '../../config/app-config';

/** Each check gets this long; both fit in the liveness probe's timeoutSeconds (2). */
const CHECK_MS = 500;

/**
 * Whether the connection pool is wedged: it has failed every check for DATABASE_WEDGED_AFTER_MS
 * (by the Clock) while a connection of its own reaches the database. Then a restart helps, so
 * `/health/live` fails. A database that is down fails both, and restarting every replica would
 * not bring it back (docs/decisions/0065-database-faults.md). Any query that succeeds, the service's own included,
 * clears the state, so a busy pool is never taken for a wedged one.
 */
@Injectable()
export class PoolLiveness implements EntitySubscriberInterface, OnModuleInit {
  private failingSince?: number;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.dataSource.subscribers.push(this);
  }

  afterQuery(event: AfterQueryEvent): void {
    if (event.success) this.failingSince = undefined;
  }

  async wedged(): Promise<boolean> {
    if (await within(this.dataSource.query('SELECT 1'))) return false;
    const now = this.clock.now().getTime();
    this.failingSince ??= now;
    if (now - this.failingSince < this.config.DATABASE_WEDGED_AFTER_MS) return false;
    if (await this.databaseAnswers()) return true;
    // The database itself was away: the pool only counts as failing from when it is back (its
    // connections from before the outage need a moment to be replaced).
    this.failingSince = now;
    return false;
  }

  /** A connection outside the pool, tried only once the pool has failed long enough. */
  private async databaseAnswers(): Promise<boolean> {
    const client = new Client({
      connectionString: this.config.DATABASE_URL,
      application_name: 'plat-api-liveness',
      connectionTimeoutMillis: CHECK_MS,
      query_timeout: CHECK_MS,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      client.end().catch(() => undefined);
    }
  }
}

/** Whether `work` succeeds within CHECK_MS; it is left to finish (or fail) on its own. */
function within(work: Promise<unknown>): Promise<boolean> {
  return settleWithin(
    work.then(
      () => true,
      () => false,
    ),
    CHECK_MS,
    false,
  );
}
