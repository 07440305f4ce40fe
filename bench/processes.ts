import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { HORIZON_AHEAD_DAYS } from '../src/events/domain/occurrences';
import { applyEnv, type ServiceEnv } from './service-env';
import type { TwinMessage } from './twin/server';

const HOST = '127.0.0.1';

export interface Target {
  name: string;
  url: string;
  port: number;
  child: ChildProcess;
  logFile: string;
  /** The last lines the process printed. */
  output(): string;
}

/** A port that was free on 127.0.0.1 a moment ago. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, HOST, resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The built service (`node dist/src/main.js`) on a free loopback port, with `env` over this
 * process's environment (the caller merges SERVICE_DEFAULTS in), ready once GET /health/ready
 * answers 200. PUBLIC_BASE_URL names the port it got, so the relay the discovery document
 * announces is reachable.
 */
export async function startService(options: {
  name: string;
  root: string;
  databaseUrl: string;
  env: ServiceEnv;
  logFile: string;
  readyTimeoutMs: number;
  /** Pin the process to this CPU list (taskset -c), when given. */
  cpu?: string;
  /** Flags for node itself (e.g. --cpu-prof). */
  nodeArgs?: string[];
  /**
   * The database (directly, not through a counting proxy) on which to wait, once ready, for the
   * app's boot run of the occurrence refresh (waitForBootRefresh).
   */
  bootRefreshDatabaseUrl?: string;
}): Promise<Target> {
  const main = join(options.root, 'dist/src/main.js');
  if (!existsSync(main))
    throw new Error(`${main} not found; run \`npm run build\` first (npm run bench does)`);
  const port = await freePort();
  const spawnedAt = Date.now();
  const [command, args] = pinned(options.cpu, [...(options.nodeArgs ?? []), main]);
  // stdout and stderr straight into the log (the harness spends nothing on a server's access log).
  const log = openSync(options.logFile, 'w');
  const child = spawn(command, args, {
    cwd: options.root,
    env: applyEnv(process.env, {
      ...options.env,
      PORT: String(port),
      HOST,
      DATABASE_URL: options.databaseUrl,
      PUBLIC_BASE_URL: `http://${HOST}:${port}`,
    }),
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const output = lastLines(options.logFile);
  const url = `http://${HOST}:${port}`;
  const target: Target = { name: options.name, url, port, child, logFile: options.logFile, output };
  try {
    await waitForReady(target, '/health/ready', options.readyTimeoutMs);
    // An api process runs no jobs (docs/decisions/0117-process-roles.md): no boot refresh to wait for.
    if (options.bootRefreshDatabaseUrl && options.env.PLAT_ROLE !== 'api')
      await waitForBootRefresh(target, options.bootRefreshDatabaseUrl, spawnedAt, options.readyTimeoutMs);
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return target;
}

/**
 * Every app process moves the occurrence horizon at boot (OccurrenceRefreshSubscriber: a job run
 * after the process answers ready). With the seed's thousands of open-ended weekly series that is CPU spent
 * after ready, which would land in the warm-up and the measured window of whatever scenario the
 * fresh process serves. Waits until the horizon reaches this process's
 * boot + 460 days, i.e. its refresh committed.
 */
async function waitForBootRefresh(
  target: Target,
  databaseUrl: string,
  spawnedAt: number,
  timeoutMs: number,
): Promise<void> {
  const wanted = spawnedAt + HORIZON_AHEAD_DAYS * 86_400_000;
  const deadline = Date.now() + timeoutMs;
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query<{ until: Date }>(
        'SELECT materialized_until AS until FROM event_occurrence_horizon WHERE id = 1',
      );
      if (rows[0] && rows[0].until.getTime() >= wanted) return;
      if (hasExited(target.child)) throw new Error(`${target.name} exited during its boot refresh`);
      if (Date.now() > deadline)
        throw new Error(`${target.name}: the boot occurrence refresh did not finish in ${timeoutMs} ms`);
      await sleep(100);
    }
  } finally {
    await client.end();
  }
}

/**
 * A node server script in a child process (the bare twin, the hello worlds) that picks its own
 * port and reports it over IPC (`{type: 'listening', port}`), pinned to `cpu` when given.
 */
export async function startNodeServer(options: {
  name: string;
  script: string;
  env: Record<string, string>;
  logFile: string;
  cpu?: string;
}): Promise<Target> {
  const [command, args] = pinned(options.cpu, [options.script]);
  const log = openSync(options.logFile, 'w');
  const child = spawn(command, args, {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', log, log, 'ipc'],
  });
  closeSync(log);
  const output = lastLines(options.logFile);
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${options.name} did not start within 30 s`)), 30_000);
      child.once('error', reject);
      child.once('exit', (code) =>
        reject(new Error(`${options.name} exited with code ${code} before listening:\n${output()}`)),
      );
      child.on('message', (message: TwinMessage) => {
        clearTimeout(timer);
        if (message.type === 'listening') resolve(message.port);
        else reject(new Error(`${options.name} failed: ${message.message}`));
      });
    });
    return {
      name: options.name,
      url: `http://${HOST}:${port}`,
      port,
      child,
      logFile: options.logFile,
      output,
    };
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
}

/** `[command, args]` running node with `args`, under `taskset -c cpu` when a CPU is given. */
export function pinned(cpu: string | undefined, args: string[]): [string, string[]] {
  return cpu === undefined ? [process.execPath, args] : ['taskset', ['-c', cpu, process.execPath, ...args]];
}

async function waitForReady(target: Target, path: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  let spawnError: Error | undefined;
  target.child.once('error', (error) => (spawnError = error));
  while (Date.now() < deadline) {
    if (spawnError) throw spawnError;
    if (hasExited(target.child)) {
      await Promise.race([new Promise((resolve) => target.child.once('close', resolve)), sleep(500)]);
      throw new Error(
        `${target.name} exited (code ${target.child.exitCode}, signal ${target.child.signalCode}) before ` +
          `GET ${path} answered 200; its last output (all in ${target.logFile}):\n${target.output()}`,
      );
    }
    try {
      const response = await fetch(`${target.url}${path}`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await sleep(250);
  }
  throw new Error(
    `${target.name}: GET ${path} did not answer 200 within ${timeoutMs / 1000} s (last: ${last}); ` +
      `its last output (all in ${target.logFile}):\n${target.output()}`,
  );
}

/**
 * SIGTERM, then SIGKILL after `graceMs`. Returns a complaint when the process did not exit with
 * code 0 on its own: the service must drain and exit cleanly on SIGTERM, as under Kubernetes.
 */
export async function stopProcess(child: ChildProcess, graceMs = 10_000): Promise<string | undefined> {
  if (hasExited(child)) return `had already exited (code ${child.exitCode}, signal ${child.signalCode})`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const inTime = await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]);
  if (!inTime) {
    child.kill('SIGKILL');
    await exited;
    return `did not exit within ${graceMs / 1000} s of SIGTERM`;
  }
  if (child.exitCode !== 0) {
    const how = child.signalCode ? `signal ${child.signalCode}` : `code ${child.exitCode}`;
    return `exited with ${how} on SIGTERM`;
  }
  return undefined;
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * The first non-loopback address of this machine on which `port` accepts connections, if any:
 * everything started here must listen on 127.0.0.1 only.
 */
export async function reachableBeyondLoopback(port: number): Promise<string | undefined> {
  const addresses = Object.values(networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && !a.internal)
    .map((a) => a!.address);
  for (const host of addresses) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ host, port });
      socket.setTimeout(500);
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('timeout', () => (socket.destroy(), resolve(false)));
      socket.once('error', () => resolve(false));
    });
    if (open) return host;
  }
  return undefined;
}

/** The last lines a child wrote to its log, for error messages. */
function lastLines(logFile: string): () => string {
  return () => {
    try {
      const text = readFileSync(logFile, 'utf8');
      return text.slice(-16_384).trimEnd().split('\n').slice(-30).join('\n');
    } catch {
      return '(no output)';
    }
  };
}
