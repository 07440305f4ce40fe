import { DataSource } from 'typeorm';
import { baseDataSourceOptions } from './data-source-options';

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

/**
 * Refuses to serve a schema older than the code: with migrations left to `npm run migrate`, a pod
 * started before its migrations ran fails here instead of answering 500s.
 */
export async function assertMigrated(dataSource: DataSource): Promise<void> {
  if (await dataSource.showMigrations()) throw new PendingMigrationsError();
}

/** Not a connection failure: retrying the connection cannot help. */
export class PendingMigrationsError extends Error {
  constructor() {
    super('the database has pending migrations: run `npm run migrate` (the migrate Job) first');
  }
}

/** `npm run migrate`: applies what is pending to the database at `url`; true when anything was. */
export async function migrateDatabase(url: string): Promise<boolean> {
  // Two connections: one holds the advisory lock while the other migrates.
  const dataSource = await new DataSource(baseDataSourceOptions(url, 2)).initialize();
  try {
    const pending = await dataSource.showMigrations();
    await runMigrationsExclusively(dataSource);
    return pending;
  } finally {
    await dataSource.destroy();
  }
}
