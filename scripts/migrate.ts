import 'reflect-metadata';
import { loadConfig } from '../src/config/app-config';
import { migrateDatabase } from '../src/infrastructure/database/migrate';

/**
 * `npm run migrate`: applies pending migrations to DATABASE_URL and exits (the Kubernetes migrate
 * Job runs it before a rollout). Under the same advisory lock as a migrating boot, so running it
 * beside replicas that migrate themselves is safe.
 */
async function main(): Promise<void> {
  // The migrate Job has the database and nothing else: the serving process's requirements do not apply.
  const { DATABASE_URL } = loadConfig(process.env, { checkServiceSettings: false });
  if (!DATABASE_URL) throw new Error('DATABASE_URL is not set');
  const applied = await migrateDatabase(DATABASE_URL);
  process.stdout.write(`migrate: ${applied ? 'pending migrations applied' : 'nothing to apply'}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`migrate: ${(error as Error)?.message ?? String(error)}\n`);
  process.exit(1);
});
