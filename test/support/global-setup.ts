import { startEmbeddedPostgres } from '../../src/infrastructure/database/embedded-postgres';
import { migratedTemplate } from './database';

/**
 * One PostgreSQL server for the whole run: the one named by DATABASE_URL (CI), else an embedded
 * cluster. Each test file then creates its own databases on it, as copies of one migrated template
 * (see test/support/database.ts).
 */
export default async function globalSetup(): Promise<void> {
  await startServer();
  process.env.TEST_DATABASE_TEMPLATE = await migratedTemplate(process.env.TEST_DATABASE_ADMIN_URL!);
}

async function startServer(): Promise<void> {
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
