import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  createDisposableDatabase,
  DisposableDatabase,
  execute,
} from '../../src/infrastructure/database/disposable-database';
import { migrateDatabase } from '../../src/infrastructure/database/migrate';

function adminUrl(): string {
  const url = process.env.TEST_DATABASE_ADMIN_URL;
  if (!url) throw new Error('TEST_DATABASE_ADMIN_URL is not set; run the tests through jest (global setup)');
  return url;
}

/** A fresh, empty database on the run's PostgreSQL server (see global-setup.ts), dropped by `drop()`. */
export async function createTestDatabase(): Promise<DisposableDatabase> {
  return createDisposableDatabase(adminUrl(), 'plat_test');
}

/**
 * A fresh database with every migration applied: a copy of the run's migrated template (a file copy,
 * where migrating anew took seconds per app booted), or an empty one left to the boot to migrate.
 */
export async function createMigratedTestDatabase(): Promise<DisposableDatabase> {
  const template = process.env.TEST_DATABASE_TEMPLATE;
  return createDisposableDatabase(adminUrl(), 'plat_test', template || undefined);
}

/**
 * The migrated template of the migrations as they are now, on the server of `admin`: named by a hash
 * of db/migrations, so a changed migration gets a template of its own, and built under another name
 * then renamed, so a run never copies a half-migrated one (runs sharing the server may race to build it).
 */
export async function migratedTemplate(admin: string): Promise<string> {
  const name = `plat_template_${migrationsHash()}`;
  if (await databaseExists(admin, name)) return name;
  const building = `plat_template_building_${randomBytes(4).toString('hex')}`;
  await execute(admin, `CREATE DATABASE "${building}"`);
  try {
    const url = new URL(admin);
    url.pathname = `/${building}`;
    await migrateDatabase(url.toString());
    await execute(admin, `ALTER DATABASE "${building}" RENAME TO "${name}"`);
  } catch (error) {
    await execute(admin, `DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
    if (!(await databaseExists(admin, name))) throw error;
  }
  return name;
}

function migrationsHash(): string {
  const folder = join(__dirname, '../../db/migrations');
  const hash = createHash('sha256');
  for (const file of readdirSync(folder).sort()) {
    hash.update(file).update(readFileSync(join(folder, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

async function databaseExists(admin: string, name: string): Promise<boolean> {
  const client = new Client({ connectionString: admin });
  await client.connect();
  try {
    const result = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return (result.rowCount ?? 0) > 0;
  } finally {
    await client.end();
  }
}

/**
 * Runs a test's bulk seeding in one transaction without the service's `statement_timeout`: seeding is
 * set-up, not a request, and a loaded CI machine's index inserts of 20,000 rows outlasted it.
 */
export async function seedUnbounded(
  dataSource: {
    transaction<T>(
      run: (manager: { query(sql: string, parameters?: unknown[]): Promise<unknown> }) => Promise<T>,
    ): Promise<T>;
  },
  statements: { sql: string; parameters?: unknown[] }[],
): Promise<void> {
  await dataSource.transaction(async (manager) => {
    await manager.query('SET LOCAL statement_timeout = 0');
    for (const { sql, parameters } of statements) await manager.query(sql, parameters);
  });
}
