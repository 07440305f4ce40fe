import { join, resolve } from 'node:path';
import Redis from 'ioredis';
import { reachableBeyondLoopback, stopProcess, type Target } from './processes';
import type { RequestPlan } from './request-plan';
import type { Scenario } from './scenario-kit';
import { SERVICE_DEFAULTS, type ServiceEnv } from './service-env';
import type { VerifyOutcome } from './verify';

/** What the phases of a run share: where things are, the live processes, the scenarios' state. */

export const root = resolve(__dirname, '../..');
export const logDir = join(root, '.data/bench-logs');
export const resultsFile = join(root, 'bench/results/latest.json');

/** Every process the run started and has not stopped yet (stopped on the way out, or on SIGINT). */
export const live = new Set<Target>();

export interface Planned {
  scenario: Scenario;
  appEnv: ServiceEnv;
  counterpartEnv?: ServiceEnv;
  request?: RequestPlan;
  /** Next `start` of a rotating plan (never the same post twice in a run). */
  cursor: number;
  skipped?: string;
  failed?: string;
  verified?: VerifyOutcome;
}

/** Rotating writes start past the posts with seeded upvotes (0–399) and the reader's. */
export const FIRST_ROTATING_NUMBER = 400;

export function status(message: string): void {
  console.error(`[bench] ${message}`);
}

/** The twin's environment: the database, the app's cursor secret and media store, its web domain when set. */
export function twinEnv(databaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    CURSOR_SECRET: SERVICE_DEFAULTS.CURSOR_SECRET!,
    MEDIA_DIR: resolve(root, SERVICE_DEFAULTS.MEDIA_DIR!),
    ...(process.env.SPACES_WEB_DOMAIN ? { SPACES_WEB_DOMAIN: process.env.SPACES_WEB_DOMAIN } : {}),
  };
}

export async function checkLoopback(target: Target, problems: string[]): Promise<void> {
  const exposed = await reachableBeyondLoopback(target.port);
  if (exposed)
    problems.push(`${target.name} also listens on ${exposed}:${target.port}; it must bind 127.0.0.1 only`);
}

export async function stopTarget(target: Target): Promise<void> {
  if (!live.has(target)) return;
  live.delete(target);
  const complaint = await stopProcess(target.child);
  // Only the app must drain and exit cleanly on SIGTERM (as under Kubernetes).
  if (complaint && target.name.startsWith('app'))
    status(`warning: ${target.name} ${complaint} (see ${target.logFile})`);
}

export async function stopAll(): Promise<void> {
  for (const target of [...live].reverse()) await stopTarget(target);
}

/** REDIS_URL when it answers PING, else redis://127.0.0.1:6379 when that does, else null. */
export async function findRedis(): Promise<string | null> {
  for (const url of [process.env.REDIS_URL, 'redis://127.0.0.1:6379']) {
    if (!url) continue;
    const client = new Redis(url, {
      lazyConnect: true,
      connectTimeout: 1_000,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      if ((await client.ping()) === 'PONG') return url;
    } catch {
      // try the next one
    } finally {
      client.disconnect();
    }
  }
  return null;
}
