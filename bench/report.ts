import type autocannon from 'autocannon';

export interface RunSummary {
  requestsPerSecond: number;
  completedRequests: number;
  latencyMs: { average: number; p50: number; p90: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** Errors and non-2xx answers seen during the discarded warm-up. */
  warmupFailures: number;
  /** With BENCH_ROUNDS > 1: req/s of each round, in the order measured. */
  rounds?: number[];
}

export interface ScenarioResult {
  name: string;
  method: string;
  /** The path the service got (after setup). */
  path: string;
  /** The path the bare baseline got, when it differs. */
  baselinePath?: string;
  /** The service's environment, as it differs from the harness defaults. */
  serviceEnv: string;
  /** `bare`: node:http + pg; `service`: the service in another environment; null: none. */
  baselineKind: 'bare' | 'service' | null;
  /** What the baseline is, in words. */
  baselineLabel: string | null;
  service: RunSummary | null;
  baseline: RunSummary | null;
  /** service req/s divided by baseline req/s. */
  ratio: number | null;
  note?: string;
  /** Why the scenario did not run (no Redis, routes missing, ...). */
  skipped?: string;
  /** Why the scenario failed before it could be measured. */
  failed?: string;
}

/** One scenario's service req/s against another's (`relativeTo`), e.g. deep page vs first page. */
export interface Comparison {
  name: string;
  relativeTo: string;
  ratio: number;
  p50: { of: number; relativeTo: number };
  p99: { of: number; relativeTo: number };
}

export function summarize(result: autocannon.Result): RunSummary {
  return {
    requestsPerSecond: result.requests.average,
    completedRequests: result.requests.total,
    latencyMs: {
      average: result.latency.average,
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count]),
    ),
    warmupFailures: result.warmup ? result.warmup.errors + result.warmup.non2xx : 0,
  };
}

/**
 * Several rounds of one side as one summary: req/s and latencies are the means over the rounds
 * (latency percentiles averaged, an approximation), counts are summed, `rounds` keeps each req/s.
 */
export function combineRuns(runs: readonly RunSummary[]): RunSummary {
  if (runs.length === 0) throw new Error('no runs to combine');
  if (runs.length === 1) return runs[0];
  const mean = (pick: (run: RunSummary) => number) =>
    runs.reduce((sum, run) => sum + pick(run), 0) / runs.length;
  const sum = (pick: (run: RunSummary) => number) => runs.reduce((total, run) => total + pick(run), 0);
  const statusCodes: Record<string, number> = {};
  for (const run of runs)
    for (const [code, count] of Object.entries(run.statusCodes))
      statusCodes[code] = (statusCodes[code] ?? 0) + count;
  return {
    requestsPerSecond: mean((r) => r.requestsPerSecond),
    completedRequests: sum((r) => r.completedRequests),
    latencyMs: {
      average: mean((r) => r.latencyMs.average),
      p50: mean((r) => r.latencyMs.p50),
      p90: mean((r) => r.latencyMs.p90),
      p99: mean((r) => r.latencyMs.p99),
      max: Math.max(...runs.map((r) => r.latencyMs.max)),
    },
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    non2xx: sum((r) => r.non2xx),
    statusCodes,
    warmupFailures: sum((r) => r.warmupFailures),
    rounds: runs.map((r) => r.requestsPerSecond),
  };
}

export function ratioOf(service: RunSummary | null, baseline: RunSummary | null): number | null {
  return service && baseline && baseline.requestsPerSecond > 0
    ? service.requestsPerSecond / baseline.requestsPerSecond
    : null;
}

/** `relativeTo` pairs among the measured results, in the order of `pairs`. */
export function comparisons(
  results: readonly ScenarioResult[],
  pairs: readonly { name: string; relativeTo: string }[],
): Comparison[] {
  const out: Comparison[] = [];
  for (const pair of pairs) {
    const of = results.find((r) => r.name === pair.name)?.service;
    const to = results.find((r) => r.name === pair.relativeTo)?.service;
    const ratio = ratioOf(of ?? null, to ?? null);
    if (of && to && ratio !== null)
      out.push({
        ...pair,
        ratio,
        p50: { of: of.latencyMs.p50, relativeTo: to.latencyMs.p50 },
        p99: { of: of.latencyMs.p99, relativeTo: to.latencyMs.p99 },
      });
  }
  return out;
}

/** What went wrong in a run, in words; empty when every request answered 2xx. */
export function failures(label: string, run: RunSummary): string[] {
  const problems: string[] = [];
  if (run.completedRequests === 0) problems.push(`${label}: no request completed`);
  if (run.errors > 0) problems.push(`${label}: ${run.errors} request errors (${run.timeouts} timeouts)`);
  if (run.non2xx > 0) {
    const codes = Object.entries(run.statusCodes)
      .filter(([code]) => !code.startsWith('2'))
      .map(([code, count]) => `${count}x ${code}`)
      .join(', ');
    problems.push(`${label}: ${run.non2xx} non-2xx responses (${codes})`);
  }
  if (run.warmupFailures > 0)
    problems.push(`${label}: ${run.warmupFailures} errors or non-2xx during warm-up`);
  return problems;
}

export function formatTable(results: ScenarioResult[]): string {
  const header = [
    'scenario',
    'baseline',
    'req/s svc',
    'req/s base',
    'ratio',
    'p50 svc',
    'p99 svc',
    'p50 base',
    'p99 base',
  ];
  const measured = results.filter((r) => r.service);
  const rows = measured.map((r) => [
    r.name,
    r.baselineKind === 'bare' ? 'bare node:http+pg' : (r.baselineLabel ?? '-'),
    r.service!.requestsPerSecond.toFixed(0),
    r.baseline ? r.baseline.requestsPerSecond.toFixed(0) : '-',
    r.ratio === null ? '-' : r.ratio.toFixed(2),
    ms(r.service!.latencyMs.p50),
    ms(r.service!.latencyMs.p99),
    ms(r.baseline?.latencyMs.p50),
    ms(r.baseline?.latencyMs.p99),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i <= 1 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  const lines = [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
  for (const r of results) {
    if (r.skipped) lines.push(`${r.name}: skipped: ${r.skipped}`);
    else if (r.failed) lines.push(`${r.name}: FAILED: ${r.failed}`);
  }
  const perRound = (run: RunSummary | null) => run?.rounds?.map((n) => n.toFixed(0)).join('/');
  const notes = measured.filter((r) => r.note || r.serviceEnv !== 'defaults' || r.service?.rounds);
  if (notes.length > 0) lines.push('');
  for (const r of notes) {
    const parts = [
      r.serviceEnv !== 'defaults' ? `service with ${r.serviceEnv}` : '',
      r.note ?? '',
      r.service?.rounds
        ? `req/s per round: svc ${perRound(r.service)}${r.baseline ? `, base ${perRound(r.baseline)}` : ''}`
        : '',
    ];
    lines.push(`${r.name}: ${parts.filter(Boolean).join('; ')}`);
  }
  return lines.join('\n');
}

export function formatComparisons(list: Comparison[]): string {
  return list
    .map(
      (c) =>
        `${c.name} / ${c.relativeTo}: req/s ratio ${c.ratio.toFixed(2)} ` +
        `(p50 ${ms(c.p50.of)} vs ${ms(c.p50.relativeTo)}, p99 ${ms(c.p99.of)} vs ${ms(c.p99.relativeTo)})`,
    )
    .join('\n');
}

/** A latency as the report prints it: whole milliseconds as they are, averages to one decimal. */
function ms(value: number | undefined): string {
  return value === undefined ? '-' : `${Number.isInteger(value) ? value : value.toFixed(1)} ms`;
}
