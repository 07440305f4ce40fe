import { join } from 'node:path';
import { startEmbeddedPostgres } from '../src/infrastructure/database/embedded-postgres';

export interface BenchDatabase {
  url: string;
  /** Where the database is, for the report; never the URL (it carries a password). */
  description: string;
  stop(): Promise<void>;
}

/** The server named by DATABASE_URL, else the embedded cluster in .data/bench-postgres. */
export async function startDatabase(root: string): Promise<BenchDatabase> {
  const external = process.env.DATABASE_URL;
  if (external) return { url: external, description: 'DATABASE_URL', stop: async () => undefined };
  const port = Number(process.env.BENCH_POSTGRES_PORT ?? 54339);
  const db = await startEmbeddedPostgres({
    dataDir: join(root, '.data/bench-postgres'),
    port,
    database: 'plat_bench',
  });
  return {
    url: db.url,
    description: `embedded PostgreSQL on 127.0.0.1:${port} (.data/bench-postgres, database plat_bench)`,
    stop: () => db.stop(),
  };
}
