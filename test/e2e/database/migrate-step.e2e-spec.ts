import request from 'supertest';
import { loadConfig } from '../../../src/config/app-config';
import { migrateDatabase } from '../../../src/infrastructure/database/migrate';
import { bootApp } from '../../support/app';
import { createTestDatabase } from '../../support/database';

/**
 * Migrations as a step (docs/decisions/0012-migrations-as-a-step.md): production pods do not migrate; `npm run migrate` (the
 * migrate Job) does, and a pod that finds migrations pending refuses to start.
 */
describe('migrations as a deployment step (e2e)', () => {
  it('migrates at boot by default, never by default in production, as told otherwise', () => {
    const production = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://db/plat',
      REDIS_URL: 'redis://redis:6379',
      MEDIA_S3_BUCKET: 'plat-media',
      CURSOR_SECRET: 'x'.repeat(32),
      MEDIA_URL_SECRET: 'm'.repeat(32),
      ERASED_BAN_SECRET: 'e'.repeat(32),
      ORIGIN_KEY: Buffer.alloc(32, 1).toString('base64url'),
    };
    expect(loadConfig({ NODE_ENV: 'development' }).migrateOnBoot).toBe(true);
    expect(loadConfig(production).migrateOnBoot).toBe(false);
    expect(loadConfig({ ...production, MIGRATE_ON_BOOT: 'true' }).migrateOnBoot).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', MIGRATE_ON_BOOT: 'false' }).migrateOnBoot).toBe(false);
  });

  it('a pod told not to migrate refuses a database with pending migrations, and starts once migrated', async () => {
    const database = await createTestDatabase();
    try {
      const env = { MIGRATE_ON_BOOT: 'false' };
      await expect(bootApp({ databaseUrl: database.url, env })).rejects.toThrow(/pending migrations/);
      expect(await migrateDatabase(database.url)).toBe(true);
      expect(await migrateDatabase(database.url)).toBe(false);
      const t = await bootApp({ databaseUrl: database.url, env });
      try {
        expect((await request(t.http).get('/health/ready')).status).toBe(200);
      } finally {
        await t.close();
      }
    } finally {
      await database.drop();
    }
  });
});
