import './infrastructure/performance/v8-flags';
// Before anything that requires http, express, pg or ioredis (OpenTelemetry patches them on load).
import { stopTracing } from './tracing';
import 'reflect-metadata';
import { createApp } from './app.factory';
import { ConfigValidationError, loadConfig } from './config/app-config';
import type { EmbeddedDatabase } from './infrastructure/database/embedded-postgres';
import { drain } from './infrastructure/health/drain';
import { JOB_CLOSE_PATIENCE_MS } from './infrastructure/jobs/job-queue';

/** Shutdown time kept for the hooks after jobs (pools, Redis, tracing) before the forced exit. */
const HOOKS_MARGIN_MS = 3000;

async function main(): Promise<void> {
  const config = loadConfig();
  let embedded: EmbeddedDatabase | undefined;
  if (!config.DATABASE_URL) {
    // Development default: a PostgreSQL of our own, kept under EMBEDDED_POSTGRES_DIR across restarts.
    const { startEmbeddedPostgres } = await loadEmbeddedPostgres();
    const database = await startEmbeddedPostgres({
      dataDir: config.EMBEDDED_POSTGRES_DIR,
      port: config.EMBEDDED_POSTGRES_PORT,
      database: 'plat',
    });
    config.DATABASE_URL = database.url;
    embedded = database;
  }

  const app = await createApp(config);
  await app.listen(config.PORT, config.HOST);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const forceExit = setTimeout(() => process.exit(1), config.SHUTDOWN_TIMEOUT_MS).unref();
    try {
      // Stops accepting connections and waits for in-flight requests, then runs shutdown hooks
      // (which wait for running jobs at most JOB_CLOSE_PATIENCE_MS): requests get what is left.
      await drain(app, Math.max(0, config.SHUTDOWN_TIMEOUT_MS - JOB_CLOSE_PATIENCE_MS - HOOKS_MARGIN_MS));
      await embedded?.stop();
      await stopTracing();
      clearTimeout(forceExit);
      process.stdout.write(`${JSON.stringify({ level: 30, msg: `stopped on ${signal}` })}\n`);
      process.exit(0);
    } catch (error) {
      process.stderr.write(`shutdown failed: ${String(error)}\n`);
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

/**
 * Loaded only when needed: the package installs its own SIGTERM/SIGINT handlers on import, which
 * would exit before in-flight requests drain. We stop the cluster ourselves, so those handlers go.
 */
async function loadEmbeddedPostgres() {
  const before = { SIGTERM: process.listeners('SIGTERM'), SIGINT: process.listeners('SIGINT') };
  const module = await import('./infrastructure/database/embedded-postgres.js');
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    for (const listener of process.listeners(signal)) {
      if (!before[signal].includes(listener)) process.removeListener(signal, listener);
    }
  }
  return module;
}

main().catch((error: unknown) => {
  const message =
    error instanceof ConfigValidationError ? error.message : String((error as Error)?.stack ?? error);
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
