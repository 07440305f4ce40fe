import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BenchConfig } from './config';
import { live, logDir, resultsFile, root, status, stopTarget, type Planned } from './fleet';
import { runLoad } from './load';
import { startService } from './processes';
import { formatProfile, summarizeProfile, type ProfileSummary } from './profile';
import { updateProfiles } from './readme';
import { failures, type ScenarioResult } from './report';
import { TWIN_HEADER, type Scenario } from './scenario-kit';
import { selectScenarios } from './scenarios';
import { beforePhase } from './before-phase';

/** The `count` twin scenarios with the lowest app/twin ratio in bench/results/latest.json. */
export function slowestOfLastRun(count: number): Scenario[] {
  let last: { scenarios?: ScenarioResult[] };
  try {
    last = JSON.parse(readFileSync(resultsFile, 'utf8')) as { scenarios?: ScenarioResult[] };
  } catch {
    throw new Error(
      'bench:profile needs BENCH_SCENARIOS, or a bench/results/latest.json to pick the slowest from',
    );
  }
  const slowest = (last.scenarios ?? [])
    .filter((r) => r.against === 'bare twin' && r.ratio)
    .sort((a, b) => a.ratio!.median - b.ratio!.median)
    .slice(0, count)
    .map((r) => r.name);
  status(
    `profiling the ${slowest.length} scenarios with the lowest ratio in ${resultsFile}: ${slowest.join('; ')}`,
  );
  return selectScenarios(undefined).filter((s) => slowest.includes(s.name));
}

/**
 * A CPU profile of the app (a fresh process, pinned like a measured one, `node --cpu-prof`) under
 * each selected scenario's load for warm-up plus duration; the profiles land in
 * bench/results/profiles/, their summaries are printed, and with BENCH_PROFILE_LABEL=before|after
 * written to bench/README.md's section of that name.
 */
export async function profileAll(
  planned: Planned[],
  config: BenchConfig,
  databaseUrl: string,
  problems: string[],
): Promise<number> {
  const dir = join(root, 'bench/results/profiles');
  mkdirSync(dir, { recursive: true });
  // BENCH_APP_DIR: profile another build of the app (e.g. a worktree of an older commit, built),
  // loaded by this harness with this run's requests and database.
  const appRoot = process.env.BENCH_APP_DIR ? resolve(process.env.BENCH_APP_DIR) : root;
  if (appRoot !== root) status(`profiling the app built in ${appRoot}`);
  const summaries: { scenario: string; file: string; summary: ProfileSummary }[] = [];
  for (const entry of planned) {
    if (entry.skipped || entry.failed || !entry.request || entry.scenario.against.kind === 'ceiling')
      continue;
    const slug = entry.scenario.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
    const file = join(dir, `${slug}.cpuprofile`);
    rmSync(file, { force: true });
    if (entry.scenario.beforePhase) await beforePhase(entry.scenario.beforePhase, databaseUrl);
    const target = await startService({
      name: 'app (profiled)',
      root: appRoot,
      databaseUrl,
      env: entry.appEnv,
      logFile: join(logDir, `${slug}-profile.log`),
      readyTimeoutMs: 60_000,
      cpu: config.pinned ? config.serverCpu : undefined,
      nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${slug}.cpuprofile`],
      // An older build (BENCH_APP_DIR) may have no occurrence refresh to wait for.
      bootRefreshDatabaseUrl: appRoot === root ? databaseUrl : undefined,
    });
    live.add(target);
    let loadEnded = Date.now();
    try {
      status(`${entry.scenario.name}: profiling the app`);
      const plan = entry.request.rotate
        ? { ...entry.request, rotate: { ...entry.request.rotate, start: entry.cursor } }
        : entry.request;
      const report = await runLoad(
        {
          url: target.url,
          plan,
          headers:
            entry.scenario.against.kind === 'twin' ? { [TWIN_HEADER]: entry.scenario.against.handler } : {},
          connections: config.connections,
          durationSeconds: config.durationSeconds,
          warmupSeconds: config.warmupSeconds,
          warmupRequests: config.warmupRequests,
          warmupMaxSeconds: config.warmupMaxSeconds,
        },
        { cpu: config.pinned ? config.loadCpu : undefined, root },
      );
      entry.cursor += report.requestsBuilt + 2 * config.connections;
      problems.push(...failures(`${entry.scenario.name} (profiled)`, report.summary));
    } finally {
      loadEnded = Date.now();
      await stopTarget(target);
    }
    // The measured run only: it ended `exit - loadEnded` ms before the profile did.
    const summary = summarizeProfile(file, appRoot, {
      endedMsBeforeEnd: Date.now() - loadEnded,
      lengthMs: config.durationSeconds * 1000,
    });
    summaries.push({ scenario: entry.scenario.name, file: file.slice(root.length + 1), summary });
    console.log(`\n${formatProfile(entry.scenario.name, summary)}`);
  }
  const label = process.env.BENCH_PROFILE_LABEL;
  writeFileSync(
    join(dir, `summary${label ? `-${label}` : ''}.json`),
    `${JSON.stringify(summaries, null, 2)}\n`,
  );
  if (label === 'before' || label === 'after') {
    updateProfiles(join(root, 'bench/README.md'), label, summaries, appDescription(appRoot));
    console.log(`updated bench/README.md (profiles ${label})`);
  }
  if (problems.length > 0) {
    console.error(`\nFAILED:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    return 1;
  }
  return 0;
}

/** Which build was profiled: its commit, and its directory when it is not this checkout. */
function appDescription(appRoot: string): string {
  let commit = 'unknown commit';
  try {
    commit = execFileSync('git', ['-C', appRoot, 'rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
    }).trim();
  } catch {
    // Not a git checkout: the directory says enough.
  }
  return appRoot === root
    ? `the app of this checkout at ${commit}`
    : `the app built in ${appRoot} at ${commit} (BENCH_APP_DIR)`;
}
