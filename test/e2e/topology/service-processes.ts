import { ChildProcess, spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** The repository root: the built service is `dist/` under it. */
export const ROOT = resolve(__dirname, '../../..');
const MAIN = join(ROOT, 'dist/src/main.js');
const MIGRATE = join(ROOT, 'dist/scripts/migrate.js');
/** The log lines of a process kept for a failure's message. */
const KEPT_LOG_CHARS = 8_000;

/**
 * These tests run the built service (`node dist/src/main.js`, as the image's CMD does), so a `dist/`
 * older than the sources would test other code than the one under review: refuse it. CI runs
 * `npm run build` before `npm test`, and the build empties `dist/` first (nest-cli.json
 * `deleteOutDir`), so every built file is newer than every source it was built from.
 */
export function assertBuildIsCurrent(): void {
  let built: number;
  try {
    built = statSync(MAIN).mtimeMs;
  } catch {
    throw new Error(`${relative(ROOT, MAIN)} is missing: run \`npm run build\` before this test`);
  }
  const newer = ['src', 'db', 'scripts']
    .flatMap((dir) => sourcesUnder(join(ROOT, dir)))
    .find((file) => statSync(file).mtimeMs > built);
  if (newer) {
    throw new Error(
      `${relative(ROOT, newer)} is newer than ${relative(ROOT, MAIN)}: run \`npm run build\` before this test`,
    );
  }
}

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** One running process of the built service. */
export interface ServiceProcess {
  name: string;
  pid: number;
  /** `http://127.0.0.1:<PORT>`. */
  base: string;
  /** `http://127.0.0.1:<METRICS_PORT>/metrics`. */
  metricsUrl: string;
  /** Its stdout and stderr so far (the end of them). */
  log(): string;
  /** Whether it has exited (or was killed). */
  exited(): boolean;
  /** Sends `signal` and waits until it has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `node dist/src/main.js` with exactly `env` (plus PATH), and waits until its
 * `/health/ready` answers 200; a process that exits first fails with its log.
 */
export async function startService(
  name: string,
  env: Record<string, string>,
  readyWithinMs: number,
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const service = wrap(name, child, env);
  const deadline = Date.now() + readyWithinMs;
  for (;;) {
    if (service.exited()) throw new Error(`${name} exited before it was ready:\n${service.log()}`);
    if (Date.now() > deadline) {
      await service.stop('SIGKILL');
      throw new Error(`${name} was not ready within ${readyWithinMs} ms:\n${service.log()}`);
    }
    const status = await fetch(`${service.base}/health/ready`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return service;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Children still running; killed if the test process exits without stopping them (a Jest timeout). */
const alive = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of alive) child.kill('SIGKILL');
});

function wrap(name: string, child: ChildProcess, env: Record<string, string>): ServiceProcess {
  alive.add(child);
  child.once('exit', () => alive.delete(child));
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-KEPT_LOG_CHARS);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  return {
    name,
    pid: child.pid!,
    base: `http://127.0.0.1:${env.PORT}`,
    metricsUrl: `http://127.0.0.1:${env.METRICS_PORT}/metrics`,
    log: () => output,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (exited()) return;
      child.kill(signal);
      await exit;
    },
  };
}

/** Stops each process still running: SIGTERM (the service drains), SIGKILL after `patienceMs`. */
export async function stopAll(services: ServiceProcess[], patienceMs = 10_000): Promise<void> {
  await Promise.all(
    services.map(async (service) => {
      const killer = setTimeout(() => void service.stop('SIGKILL'), patienceMs);
      try {
        await service.stop('SIGTERM');
      } finally {
        clearTimeout(killer);
      }
    }),
  );
}

/** `node dist/scripts/migrate.js` (the migrate Job's command) with `env`; fails with its output. */
export function migrate(env: Record<string, string>): Promise<void> {
  const child = spawn(process.execPath, [MIGRATE], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const service = wrap('migrate', child, env);
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`migrate exited ${code}:\n${service.log()}`)),
    ),
  );
}

/** The value of one sample of a Prometheus text exposition (`name{labels} value`), or 0. */
export function sample(exposition: string, series: string): number {
  const line = exposition.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}
