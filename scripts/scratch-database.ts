import { createDisposableDatabase } from '../src/infrastructure/database/disposable-database';
import { startEmbeddedPostgres } from '../src/infrastructure/database/embedded-postgres';

/**
 * Runs `work` against a brand-new, empty database that is dropped afterwards: on the server of
 * DATABASE_URL when set, else on an embedded cluster of its own (so tooling never touches dev data).
 */
export async function withScratchDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const embedded = process.env.DATABASE_URL
    ? undefined
    : await startEmbeddedPostgres({
        dataDir: '.data/tooling-postgres',
        port: 54321,
        database: 'plat_tooling',
      });
  const database = await createDisposableDatabase(
    process.env.DATABASE_URL ?? embedded!.adminUrl,
    'plat_scratch',
  );
  try {
    return await work(database.url);
  } finally {
    await database.drop();
    await embedded?.stop();
  }
}
