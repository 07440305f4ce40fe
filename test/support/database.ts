import {
  createDisposableDatabase,
  DisposableDatabase,
} from '../../src/infrastructure/database/disposable-database';

/** A fresh database on the run's PostgreSQL server (see global-setup.ts), dropped by `drop()`. */
export async function createTestDatabase(): Promise<DisposableDatabase> {
  const adminUrl = process.env.TEST_DATABASE_ADMIN_URL;
  if (!adminUrl)
    throw new Error('TEST_DATABASE_ADMIN_URL is not set; run the tests through jest (global setup)');
  return createDisposableDatabase(adminUrl, 'plat_test');
}
