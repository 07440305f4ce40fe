import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export interface DisposableDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A brand-new database on the server of `adminUrl` (named `<prefix>_<random>`), for tooling and
 * tests that must not touch anyone's data: empty, or a copy of `template` (nobody may be connected
 * to it); `drop()` removes it, open connections included.
 */
export async function createDisposableDatabase(
  adminUrl: string,
  prefix: string,
  template?: string,
): Promise<DisposableDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await execute(adminUrl, `CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => execute(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/** Runs one statement on its own connection to `url` (CREATE/DROP DATABASE run outside a pool). */
export async function execute(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
