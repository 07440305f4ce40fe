import 'reflect-metadata';
import { join, relative, resolve } from 'node:path';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/app-config';
import { baseDataSourceOptions } from '../src/infrastructure/database/data-source-options';
import type { EmbeddedDatabase } from '../src/infrastructure/database/embedded-postgres';
import { runMigrationsExclusively } from '../src/infrastructure/database/migrate';
import { withLoopbackApp } from './seed/demo/loopback';
import { seedDemoCommunity, type DemoSeedResult } from './seed/demo/seed-demo';
import { seededRng, seedSpaces } from './seed/spaces';

/**
 * `npm run seed` (after `npm run build`): seed data for development and benchmarks. (The benchmark
 * builds its own database in bench/seed.ts and does not run this.)
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
 *
 * Then the demo community (db/seed/demo/plan.ts; docs/decisions/0103-demo-community-seed.md): people with
 * real identity chains, their spaces, posts, comments, an event and a product, created through the
 * HTTP API of the service booted in this process on 127.0.0.1 with the `plat` CLI's client. Their
 * key files go to SEED_DEMO_DIR (default .data/demo, one `<handle>.json` each, mode 0600), ready for
 * `plat --keys`. SEED_DEMO=false skips it; running it again reuses the key files and adds nothing.
 */

async function main(): Promise<void> {
  const config = loadConfig();
  const count = nonNegativeInteger('SEED_SPACES', 10_000);
  const random = process.env.SEED_RANDOM ? nonNegativeInteger('SEED_RANDOM', 0) : undefined;
  const demo = !['false', '0', 'no', 'off'].includes((process.env.SEED_DEMO ?? '').trim().toLowerCase());
  const demoDir = resolve(process.env.SEED_DEMO_DIR || join('.data', 'demo'));

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

    if (demo) {
      const appConfig = loadConfig({
        ...process.env,
        // Quiet unless told otherwise; the seed's own requests charge no budget; no second metrics server.
        LOG_LEVEL: process.env.LOG_LEVEL || 'error',
        RATE_LIMIT_DISABLED: 'true',
        // Serves HTTP whatever role the environment names (a worker-only role would not listen).
        PLAT_ROLE: 'all',
        METRICS_PORT: undefined,
        DATABASE_URL: url,
      });
      const result = await withLoopbackApp(appConfig, (client) =>
        seedDemoCommunity({ client, keysDir: demoDir, publicApi: appConfig.publicBaseUrl, log }),
      );
      process.stdout.write(demoUsage(result, appConfig.publicBaseUrl));
    }
  } finally {
    await embedded?.stop();
  }
}

/** How to use the demo with the CLI, printed on stdout. */
function demoUsage(result: DemoSeedResult, api: string): string {
  const cli = 'node dist/src/cli/plat.js';
  const apiFlag = api === 'http://localhost:3000' ? '' : ` --api ${api}`;
  const shown = (path: string) =>
    relative(process.cwd(), path).startsWith('..') ? path : relative(process.cwd(), path);
  const alice = shown(result.people[0].keyFile);
  const space = result.spaces[0];
  const lines = [
    '',
    'Demo community: sign in as any of these people with the plat CLI (start the API first: npm start).',
    ...result.people.map((person) => `  @${person.handle.padEnd(8)} ${person.did}  ${shown(person.keyFile)}`),
    '',
    'Spaces:',
    ...result.spaces.map(
      (entry) => `  ${entry.domain.padEnd(18)} ${entry.id}  (GET ${api}/v1/spaces/${entry.id})`,
    ),
    '',
    'Try:',
    `  ${cli} whoami --keys ${alice}`,
    `  ${cli} request GET /v1/profile --keys ${alice}${apiFlag}`,
    `  ${cli} request GET /spaces/${space.id}/members --keys ${alice}${apiFlag}`,
    `  PLAT_KEYS=${alice} ${cli} request GET /v1/feed${apiFlag}`,
    '',
  ];
  return `${lines.join('\n')}\n`;
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
