import { startEmbeddedPostgres } from '../../src/infrastructure/database/embedded-postgres';

/**
 * One PostgreSQL server for the whole run: the one named by DATABASE_URL (CI), else an embedded
 * cluster. Each test file then creates its own database on it (see test/support/database.ts).
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.DATABASE_URL) {
    process.env.TEST_DATABASE_ADMIN_URL = process.env.DATABASE_URL;
    return;
  }
  const db = await startEmbeddedPostgres({
    dataDir: '.data/test-postgres',
    port: Number(process.env.TEST_EMBEDDED_POSTGRES_PORT ?? 54329),
    database: 'plat_test',
  });
  process.env.TEST_DATABASE_ADMIN_URL = db.adminUrl;
  (globalThis as { __embeddedPostgres?: { stop(): Promise<void> } }).__embeddedPostgres = db;
}
