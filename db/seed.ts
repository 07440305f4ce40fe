import 'reflect-metadata';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/app-config';
import { baseDataSourceOptions } from '../src/infrastructure/database/data-source-options';
import type { EmbeddedDatabase } from '../src/infrastructure/database/embedded-postgres';
import { runMigrationsExclusively } from '../src/infrastructure/database/migrate';
import { seededRng, seedSpaces } from './seed/spaces';

/**
 * `npm run seed` (after `npm run build`): seed data for development and benchmarks.
 *
 * Database: DATABASE_URL, else the embedded cluster main.ts uses (EMBEDDED_POSTGRES_DIR, default
 * .data/postgres; EMBEDDED_POSTGRES_PORT, default 54320; database `plat`). Stop `npm start` first
 * when it runs on that cluster. The app's migrations run first (under the same advisory lock).
 *
 * Env: SEED_SPACES (public spaces with activity wanted, default 10000; the database is topped up
 * to that many, so running it twice inserts nothing the second time), SEED_RANDOM (an integer:
 * the same rows for the same value and starting state; default random).
 *
 * The spaces' DIDs are syntactically valid `did:plat:` ids with no identity chain (see
 * db/seed/spaces.ts).
 */

async function main(): Promise<void> {
  const config = loadConfig();
  const count = nonNegativeInteger('SEED_SPACES', 10_000);
  const random = process.env.SEED_RANDOM ? nonNegativeInteger('SEED_RANDOM', 0) : undefined;

  let embedded: EmbeddedDatabase | undefined;
  let url = config.DATABASE_URL;
  if (!url) {
    const { startEmbeddedPostgres } = await import('../src/infrastructure/database/embedded-postgres.js');
    embedded = await startEmbeddedPostgres({
      dataDir: config.EMBEDDED_POSTGRES_DIR,
      port: config.EMBEDDED_POSTGRES_PORT,
      database: 'plat',
    });
    url = embedded.url;
    log(
      `embedded PostgreSQL on 127.0.0.1:${config.EMBEDDED_POSTGRES_PORT} (${config.EMBEDDED_POSTGRES_DIR})`,
    );
  }

  try {
    const dataSource = new DataSource(baseDataSourceOptions(url, 2));
    await dataSource.initialize();
    try {
      await runMigrationsExclusively(dataSource);
    } finally {
      await dataSource.destroy();
    }

    const pool = new Pool({ connectionString: url, max: 2 });
    try {
      const started = Date.now();
      const result = await seedSpaces(pool, {
        count,
        rng: random === undefined ? undefined : seededRng(random),
        log,
      });
      log(
        result.insertedSpaces === 0
          ? `spaces: ${result.existing} public spaces with activity already (≥ ${count}); nothing to do`
          : `spaces: inserted ${result.insertedSpaces} spaces and ${result.insertedMemberships} memberships ` +
              `in ${((Date.now() - started) / 1000).toFixed(1)} s; ${result.publicLive} public spaces with activity`,
      );
    } finally {
      await pool.end();
    }
  } finally {
    await embedded?.stop();
  }
}

function nonNegativeInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0)
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function log(message: string): void {
  console.error(`[seed] ${message}`);
}

main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    console.error(`[seed] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  });
