import { DataSource } from 'typeorm';

// Any constant works; it only has to be the same on every replica.
const MIGRATION_LOCK_KEY = 7_316_551;

/**
 * Applies pending migrations under a PostgreSQL advisory lock, so replicas starting together
 * migrate once and the others wait for it instead of racing.
 */
export async function runMigrationsExclusively(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}
