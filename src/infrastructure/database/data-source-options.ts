import { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../../../db/migrations';
import type { AppConfig } from '../../config/app-config';

/** Options shared by the application and the migration tooling. Schema changes only ever come from migrations. */
export function baseDataSourceOptions(url: string, poolSize = 10): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    // A request waiting for a pooled connection fails after 10 s instead of hanging forever.
    extra: { max: poolSize, application_name: 'plat-api', connectionTimeoutMillis: 10_000 },
  };
}

/** The client waits this much longer than `statement_timeout` before it gives the answer up. */
const ANSWER_GRACE_MS = 1000;

/**
 * The serving pool: every wait is bounded, so a database that cannot answer fails requests (503)
 * instead of holding them, and the server frees what a lost client held. Not for migrations, which
 * may run long (an index build, another replica's migration lock).
 */
export function servingDataSourceOptions(url: string, config: AppConfig): DataSourceOptions {
  const base = baseDataSourceOptions(url, config.DATABASE_POOL_SIZE);
  return {
    ...base,
    extra: {
      ...base.extra,
      // pg-pool: the wait for a free client and the connect of a new one.
      connectionTimeoutMillis: config.DATABASE_ACQUIRE_TIMEOUT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: config.DATABASE_KEEPALIVE_DELAY_MS,
      // Sent at login, so they hold for every statement of the session.
      statement_timeout: config.DATABASE_STATEMENT_TIMEOUT_MS,
      lock_timeout: config.DATABASE_LOCK_TIMEOUT_MS,
      idle_in_transaction_session_timeout: config.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      // A partition: the server never answers, not even with statement_timeout's error.
      query_timeout: config.DATABASE_STATEMENT_TIMEOUT_MS + ANSWER_GRACE_MS,
    },
  };
}
