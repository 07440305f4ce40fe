import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchConfig } from './config';
import { roundOrder } from './measure-order';
import { live, logDir, root, status, stopTarget, twinEnv, type Planned } from './fleet';
import { runLoad } from './load';
import { startNodeServer, startService, type Target } from './processes';
import { failures, ratioOf, sideResult, spreadOf, type RunSummary, type ScenarioResult } from './report';
import type { RequestPlan } from './request-plan';
import { TWIN_HEADER, type Scenario } from './scenario-kit';
import { describeEnv } from './service-env';
import { beforePhase } from './before-phase';
import { holdIdleStreams, holdsIdleStreams, idleStreamsWanted, type HeldStreams } from './idle-streams';

/**
 * BENCH_ROUNDS rounds of each scenario of a group (bench/measure-order.ts: a scenario and those read
 * against it), the group's scenarios one after another in each round, reversed in even rounds.
 * Within a scenario's round the app goes first in odd rounds and the counterpart in even ones: each
 * side a fresh process pinned to the server core, loaded by a fresh load generator pinned to the
 * other (bench/load.ts), stopped. A scenario that fails is left out of the group's later rounds.
 */
export async function measureGroup(
  entries: readonly Planned[],
  config: BenchConfig,
  databaseUrl: string,
  problems: string[],
): Promise<ScenarioResult[]> {
  const states = entries.map((entry) => ({
    entry,
    result: unmeasured(entry),
    appRuns: [] as RunSummary[],
    otherRuns: [] as RunSummary[],
    measurable: !entry.skipped && !entry.failed && Boolean(entry.request),
  }));
  for (let round = 1; round <= config.rounds; round++)
    for (const state of roundOrder(states, round)) {
      if (!state.measurable) continue;
      try {
        await measureRound(state, round, config, databaseUrl, problems);
      } catch (error) {
        state.measurable = false;
        state.result.failed = error instanceof Error ? error.message : String(error);
        problems.push(`${state.entry.scenario.name}: ${state.result.failed}`);
        status(`${state.entry.scenario.name}: FAILED (${state.result.failed})`);
      }
    }
  return states.map((state) => (state.measurable ? finish(state) : state.result));
}

interface ScenarioState {
  entry: Planned;
  result: ScenarioResult;
  appRuns: RunSummary[];
  otherRuns: RunSummary[];
  measurable: boolean;
}

async function measureRound(
  state: ScenarioState,
  round: number,
  config: BenchConfig,
  databaseUrl: string,
  problems: string[],
): Promise<void> {
  const { entry } = state;
  const hasCounterpart = entry.scenario.against.kind !== 'none';
  // Even rounds measure the counterpart first, so neither side always follows the other (or
  // the previous scenario) while the database is still settling.
  const counterpartFirst = hasCounterpart && round % 2 === 0;
  if (counterpartFirst)
    state.otherRuns.push(await measureSide(entry, 'counterpart', round, config, databaseUrl, problems));
  state.appRuns.push(await measureSide(entry, 'app', round, config, databaseUrl, problems));
  if (hasCounterpart && !counterpartFirst)
    state.otherRuns.push(await measureSide(entry, 'counterpart', round, config, databaseUrl, problems));
}

function finish({ entry, result, appRuns, otherRuns }: ScenarioState): ScenarioResult {
  const { scenario } = entry;
  result.app = sideResult(appLabel(scenario), appRuns);
  if (scenario.against.kind !== 'none') result.counterpart = sideResult(result.against, otherRuns);
  result.ratio = ratioOf(result.app, result.counterpart);
  const reported = reportedFigures(scenario, entry.request!, appRuns);
  if (reported) {
    result.note = result.note ? `${result.note}; ${reported}` : reported;
    status(`${scenario.name}: ${reported}`);
  }
  return result;
}

async function measureSide(
  entry: Planned,
  side: 'app' | 'counterpart',
  round: number,
  config: BenchConfig,
  databaseUrl: string,
  problems: string[],
): Promise<RunSummary> {
  const { scenario } = entry;
  if (scenario.beforePhase) await beforePhase(scenario.beforePhase, databaseUrl);
  const target = await startSide(entry, side, config, databaseUrl, `${round}`);
  let held: HeldStreams | null = null;
  try {
    const idle = idleStreamsWanted(process.env);
    if (idle > 0 && side === 'app' && holdsIdleStreams(scenario.group)) {
      held = await holdIdleStreams(target, idle);
      status(
        `${scenario.name}: app holds ${held.count} idle streams, RSS +${mib(held.rssAfter - held.rssBefore)} MiB` +
          ` (${((held.rssAfter - held.rssBefore) / held.count / 1024).toFixed(1)} KiB each), ${held.retried} opens retried`,
      );
    }
    const request = entry.request!;
    const plan: RequestPlan = request.rotate
      ? { ...request, rotate: { ...request.rotate, start: entry.cursor } }
      : request.paths
        ? { ...request, paths: { ...request.paths, start: entry.cursor } }
        : request;
    const memoryBefore = side === 'app' && scenario.reports?.memory ? memoryOf(target) : null;
    status(
      `${scenario.name}: round ${round}, ${side === 'app' ? appLabel(scenario) : counterpartLabel(scenario)}`,
    );
    const report = await runLoad(
      {
        url: target.url,
        plan,
        headers: scenario.against.kind === 'twin' ? { [TWIN_HEADER]: scenario.against.handler } : {},
        connections: config.connections,
        durationSeconds: config.durationSeconds,
        warmupSeconds: config.warmupSeconds,
        warmupRequests: config.warmupRequests,
        warmupMaxSeconds: config.warmupMaxSeconds,
        alongside: side === 'app' ? scenario.alongside : undefined,
      },
      { cpu: config.pinned ? config.loadCpu : undefined, root },
    );
    // Past every request this phase built (and the in-flight ones it may not have counted).
    entry.cursor += report.requestsBuilt + 2 * config.connections;
    if (request.rotate && entry.cursor > request.rotate.count * request.proof!.actors.length)
      problems.push(
        `${scenario.name}: more writes than (actor, post) pairs; raise BENCH_SEED_POSTS or lower BENCH_DURATION`,
      );
    if (request.paths && entry.cursor > request.paths.list.length)
      problems.push(`${scenario.name}: more requests than prepared paths (${request.paths.list.length})`);
    if (memoryBefore) {
      const after = memoryOf(target);
      if (after) report.summary.memory = { rssBeforeMiB: memoryBefore.rssMiB, peakRssMiB: after.peakMiB };
    }
    problems.push(...failures(`${scenario.name} round ${round} (${side})`, report.summary));
    if (held) {
      report.summary.idleStreams = {
        count: held.count,
        rssPerStreamKiB: (held.rssAfter - held.rssBefore) / held.count / 1024,
      };
    }
    if (report.alongside)
      status(
        `${scenario.name}: alongside ${Math.round(report.alongside.requestsPerSecond)} req/s, ${report.alongside.errors} errors`,
      );
    return report.summary;
  } finally {
    held?.close();
    await stopTarget(target);
  }
}

/** A fresh process of this side, pinned to the server CPU, straight on the database (no proxy). */
async function startSide(
  entry: Planned,
  side: 'app' | 'counterpart',
  config: BenchConfig,
  databaseUrl: string,
  round: string,
): Promise<Target> {
  const { against } = entry.scenario;
  const cpu = config.pinned ? config.serverCpu : undefined;
  const slug = entry.scenario.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
  const logFile = join(logDir, `${slug}-${side}-${round}.log`);
  let target: Target;
  if (against.kind === 'ceiling') {
    const name = side === 'app' ? 'nest-hello' : 'raw-hello';
    target = await startNodeServer({
      name,
      script: join(root, `dist/bench/ceiling/${name}.js`),
      env: {},
      logFile,
      cpu,
    });
  } else if (side === 'counterpart' && against.kind === 'twin') {
    target = await startNodeServer({
      name: 'twin',
      script: join(root, 'dist/bench/twin/server.js'),
      env: twinEnv(databaseUrl),
      logFile,
      cpu,
    });
  } else {
    const env = side === 'app' ? entry.appEnv : entry.counterpartEnv!;
    target = await startService({
      name: `app (${describeEnv(env)})`,
      root,
      databaseUrl,
      env,
      logFile,
      readyTimeoutMs: 60_000,
      cpu,
      bootRefreshDatabaseUrl: databaseUrl,
    });
  }
  live.add(target);
  return target;
}

/** The process's resident set now and its peak so far (VmRSS, VmHWM), or null off Linux. */
function memoryOf(target: Target): { rssMiB: number; peakMiB: number } | null {
  try {
    const text = readFileSync(`/proc/${target.child.pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1]);
    const rss = kib('VmRSS');
    const peak = kib('VmHWM');
    return Number.isFinite(rss) && Number.isFinite(peak)
      ? { rssMiB: rss / 1024, peakMiB: peak / 1024 }
      : null;
  } catch {
    return null;
  }
}

/** The figures a scenario asks for (`reports`), medians of the app's rounds, in words. */
function reportedFigures(scenario: Scenario, request: RequestPlan, rounds: RunSummary[]): string | null {
  const parts: string[] = [];
  const bodyBytes = request.bodyFile
    ? statSync(request.bodyFile).size
    : Buffer.byteLength(request.body ?? '');
  if (scenario.reports?.throughput && bodyBytes > 0) {
    const perSecond = spreadOf(rounds.map((r) => r.requestsPerSecond)).median;
    parts.push(
      `${(bodyBytes / 1e6).toFixed(1)} MB bodies: ${perSecond.toFixed(1)}/s, ${((perSecond * bodyBytes) / 1e6).toFixed(1)} MB/s`,
    );
  }
  const holding = rounds.filter((r) => r.idleStreams).map((r) => r.idleStreams!);
  if (holding.length > 0) {
    const perStream = spreadOf(holding.map((h) => h.rssPerStreamKiB)).median;
    parts.push(`app holding ${holding[0].count} idle streams (RSS ${perStream.toFixed(1)} KiB each)`);
  }
  const measured = rounds.filter((r) => r.memory).map((r) => r.memory!);
  if (scenario.reports?.memory && measured.length > 0) {
    const before = spreadOf(measured.map((m) => m.rssBeforeMiB)).median;
    const peak = spreadOf(measured.map((m) => m.peakRssMiB)).median;
    parts.push(`app RSS ${Math.round(before)} MiB before the load, peak ${Math.round(peak)} MiB by its end`);
  }
  return parts.length > 0 ? parts.join('; ') : null;
}

function appLabel(scenario: Scenario): string {
  return scenario.against.kind === 'ceiling' ? 'Nest + Express hello' : 'app';
}

function counterpartLabel(scenario: Scenario): string {
  const { against } = scenario;
  switch (against.kind) {
    case 'twin':
      return 'bare twin';
    case 'app':
      return against.label;
    case 'ceiling':
      return 'raw node:http hello';
    case 'none':
      return '-';
  }
}

export function unmeasured(entry: Planned): ScenarioResult {
  const { scenario, verified, request } = entry;
  return {
    name: scenario.name,
    group: scenario.group,
    method: request?.method ?? '',
    path: verified?.path ?? request?.path ?? '',
    against: counterpartLabel(scenario),
    app: null,
    counterpart: null,
    ratio: null,
    statements: verified ? { app: verified.statements.app, twin: verified.statements.twin } : null,
    verified: verified ? { identical: verified.identical, differences: verified.differences } : null,
    ...(verified ? { bytes: verified.bytes } : {}),
    ...(scenario.target ? { target: { ...scenario.target, relativeTo: scenario.relativeTo } } : {}),
    ...(entry.appEnv && describeEnv(entry.appEnv) !== 'defaults' && !entry.skipped
      ? { note: `app with ${describeEnv(entry.appEnv)}` }
      : {}),
    ...(entry.skipped ? { skipped: entry.skipped } : {}),
    ...(entry.failed ? { failed: entry.failed } : {}),
  };
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
