import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { Type } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Test, TestingModuleBuilder } from '@nestjs/testing';
import { configureApp } from '../../src/app.factory';
import { AppModule } from '../../src/app.module';
import { AppPrototypeExpressAdapter } from '../../src/infrastructure/performance/app-prototype-express-adapter';
import { PaginationModule } from '../../src/common/pagination/pagination.module';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { createMigratedTestDatabase } from './database';
import { REDIS_DISCONNECT_PATIENCE_MS } from '../../src/infrastructure/redis/shared-redis';

export const GENEROUS_RATE_LIMITS = {
  RATE_LIMIT_IP_ALL: '1000000',
  RATE_LIMIT_IP_READS: '1000000',
  RATE_LIMIT_IP_UPVOTES: '1000000',
  RATE_LIMIT_IP_POSTS: '1000000',
  RATE_LIMIT_IP_KEY_PROOF: '1000000',
  RATE_LIMIT_POP_CAPTURE: '1000000',
  RATE_LIMIT_GRANT_ALL: '1000000',
  RATE_LIMIT_GRANT_READS: '1000000',
  RATE_LIMIT_GRANT_UPVOTES: '1000000',
  RATE_LIMIT_GRANT_POSTS: '1000000',
};

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  /** The supertest target. */
  http: ReturnType<NestExpressApplication['getHttpServer']>;
  databaseUrl: string;
  close(): Promise<void>;
}

export interface BootOptions {
  /** Extra environment, as the service would read it. */
  env?: Record<string, string>;
  /** Replace outside services (fetchers, clocks); never our own modules. */
  override?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
  /** Reuse a database (e.g. two replicas of one service); a fresh one otherwise. */
  databaseUrl?: string;
  /** How the service reaches its fresh database (e.g. `relay.route`: through a faultable relay). */
  routeDatabase?: (url: string) => string;
  /** Extra test-only routes mounted beside AppModule (routes whose modules do not exist yet). */
  controllers?: Type[];
}

/** Boots the real AppModule on a fresh database, exactly as main.ts does but without listening. */
export async function bootApp(options: BootOptions = {}): Promise<TestApp> {
  const settings = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL: 'http://api.plat.test',
    CURSOR_SECRET: 'test-cursor-secret-test-cursor-secret',
    REDIS_URL: process.env.REDIS_URL,
    REDIS_TIMEOUT_MS: '2000',
    // Suites share one client IP (and, on CI, one Redis): budgets are tested where they matter.
    ...GENEROUS_RATE_LIMITS,
    RATE_LIMIT_REDIS_PREFIX: `plat:test:${randomUUID()}:`,
    JOBS_REDIS_PREFIX: `plat:test:${randomUUID()}:jobs`,
    ...options.env,
  };
  // A configuration the service refuses fails before a database is made for it (none is left behind).
  loadConfig({ ...settings, DATABASE_URL: options.databaseUrl ?? 'postgres://refusals-checked-first/plat' });
  const database = options.databaseUrl ? undefined : await createMigratedTestDatabase();
  const route = options.routeDatabase ?? ((url: string) => url);
  const databaseUrl = options.databaseUrl ?? route(database!.url);
  const config = loadConfig({ ...settings, DATABASE_URL: databaseUrl });
  let builder = Test.createTestingModule({
    // Test-only routes page like the service's own listings.
    imports: [AppModule.forRoot(config), PaginationModule],
    controllers: options.controllers ?? [],
  });
  if (options.override) builder = options.override(builder);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>(new AppPrototypeExpressAdapter(), {
    bodyParser: false,
    bufferLogs: true,
  });
  await configureApp(app);
  return {
    app,
    config,
    http: app.getHttpServer(),
    databaseUrl,
    close: async () => {
      try {
        await app.close();
      } finally {
        await database?.drop();
        await dropJobKeys(config);
      }
    },
  };
}

/** The job queue's keys of this app (its schedulers outlive it otherwise). */
async function dropJobKeys(config: AppConfig): Promise<void> {
  if (!config.REDIS_URL) return;
  const redis = new Redis(config.REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
    disconnectTimeout: REDIS_DISCONNECT_PATIENCE_MS,
  });
  try {
    await redis.connect();
    const keys: string[] = [];
    for await (const batch of redis.scanStream({ match: `${config.JOBS_REDIS_PREFIX}:*`, count: 500 })) {
      keys.push(...(batch as string[]));
    }
    if (keys.length > 0) await redis.del(...keys);
  } catch {
    // A Redis that a fault test took away keeps the keys; they are inert without a worker.
  } finally {
    redis.disconnect();
  }
}
