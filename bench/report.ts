import type autocannon from 'autocannon';

/** One measured phase of one side (one fresh process, warm-up discarded). */
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
  /** The server's resident set just before the load, and its peak by the end (MiB; Linux only). */
  memory?: { rssBeforeMiB: number; peakRssMiB: number };
  /** BENCH_IDLE_STREAMS: the idle streams the app held while measured, and its RSS per stream (KiB). */
  idleStreams?: { count: number; rssPerStreamKiB: number };
}

/** The rounds of one side: each round's figures, and their median and spread. */
export interface SideResult {
  label: string;
  rounds: RunSummary[];
  requestsPerSecond: Spread;
  p50Ms: Spread;
  p99Ms: Spread;
}

export interface Spread {
  median: number;
  min: number;
  max: number;
}

export interface ScenarioResult {
  name: string;
  group: string;
  method: string;
  path: string;
  /** What the app is compared with, in words. */
  against: string;
  app: SideResult | null;
  counterpart: SideResult | null;
  /**
   * App req/s over counterpart req/s: `median` divides the two medians; `min` and `max` are the
   * lowest and highest ratio of a round's own pair.
   */
  ratio: Spread | null;
  /** Statements per request (median of the verify step's requests): app, counterpart. */
  statements: { app: number; twin: number | null } | null;
  /** The verify step's byte comparison. */
  verified: { identical: boolean; differences: string[] } | null;
  /** Bytes of the app's answer (verify step). */
  bytes?: number;
  /** Its target (see Scenario.target; bench/README.md, "Targets"). */
  target?: { ratio?: number; relative?: number; relativeTo?: string };
  note?: string;
  skipped?: string;
  failed?: string;
}

/** One target checked against a run's medians. */
export interface TargetCheck {
  scenario: string;
  what: string;
  value: number | null;
  atLeast: number;
  met: boolean;
}

/** One scenario's app req/s against another's (`relativeTo`), e.g. deep page vs first page. */
export interface Comparison {
  name: string;
  relativeTo: string;
  ratio: number;
  /** The lowest and highest ratio of a round's own pair (both measured in the same stretch). */
  rounds: { min: number; max: number };
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

export function spreadOf(values: readonly number[]): Spread {
  if (values.length === 0) throw new Error('no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1] };
}

export function sideResult(label: string, rounds: RunSummary[]): SideResult {
  return {
    label,
    rounds,
    requestsPerSecond: spreadOf(rounds.map((r) => r.requestsPerSecond)),
    p50Ms: spreadOf(rounds.map((r) => r.latencyMs.p50)),
    p99Ms: spreadOf(rounds.map((r) => r.latencyMs.p99)),
  };
}

/** The ratio of the medians, and the spread of the rounds' own ratios (rounds paired in order). */
export function ratioOf(app: SideResult | null, other: SideResult | null): Spread | null {
  if (!app || !other || other.requestsPerSecond.median <= 0) return null;
  const perRound = app.rounds
    .map((run, i) => (other.rounds[i] ? run.requestsPerSecond / other.rounds[i].requestsPerSecond : NaN))
    .filter((value) => Number.isFinite(value));
  const median = app.requestsPerSecond.median / other.requestsPerSecond.median;
  if (perRound.length === 0) return { median, min: median, max: median };
  return { median, min: Math.min(...perRound), max: Math.max(...perRound) };
}

/** `relativeTo` pairs among the measured results, in the order of `pairs` (app sides, medians). */
export function comparisons(
  results: readonly ScenarioResult[],
  pairs: readonly { name: string; relativeTo: string }[],
): Comparison[] {
  const out: Comparison[] = [];
  for (const pair of pairs) {
    const of = results.find((r) => r.name === pair.name)?.app;
    const to = results.find((r) => r.name === pair.relativeTo)?.app;
    const ratio = ratioOf(of ?? null, to ?? null);
    if (of && to && ratio)
      out.push({
        ...pair,
        ratio: ratio.median,
        rounds: { min: ratio.min, max: ratio.max },
        p50: { of: of.p50Ms.median, relativeTo: to.p50Ms.median },
        p99: { of: of.p99Ms.median, relativeTo: to.p99Ms.median },
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

const num = (value: number) =>
  value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
const spread = (s: Spread | undefined, format: (n: number) => string = num) =>
  s ? (s.min === s.max ? format(s.median) : `${format(s.median)} (${format(s.min)}–${format(s.max)})`) : '-';
const count = (value: number) => (Number.isInteger(value) ? `${value}` : value.toFixed(1));
const ms = (value: number) => (Number.isInteger(value) ? `${value}` : value.toFixed(1));

/** The results as rows: req/s median (min–max) of both sides, the ratio, p50/p99, statements, bytes. */
export function tableRows(results: readonly ScenarioResult[]): string[][] {
  const header = [
    'scenario',
    'counterpart',
    'app req/s',
    'counterpart req/s',
    'ratio',
    'p50 ms app / cp',
    'p99 ms app / cp',
    'statements app / cp',
    'same bytes',
  ];
  const rows = results
    .filter((r) => r.app)
    .map((r) => [
      r.name,
      r.against,
      spread(r.app?.requestsPerSecond),
      spread(r.counterpart?.requestsPerSecond),
      spread(r.ratio ?? undefined, (n) => n.toFixed(2)),
      `${ms(r.app!.p50Ms.median)} / ${r.counterpart ? ms(r.counterpart.p50Ms.median) : '-'}`,
      `${ms(r.app!.p99Ms.median)} / ${r.counterpart ? ms(r.counterpart.p99Ms.median) : '-'}`,
      r.statements
        ? `${count(r.statements.app)} / ${r.statements.twin === null ? '-' : count(r.statements.twin)}`
        : '-',
      r.verified === null ? '-' : r.verified.identical ? 'yes' : 'NO',
    ]);
  return [header, ...rows];
}

/** A fixed-width table for the terminal. */
export function formatTable(results: readonly ScenarioResult[]): string {
  const rows = tableRows(results);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i <= 1 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  const lines = [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)];
  for (const r of results) {
    if (r.skipped) lines.push(`${r.name}: skipped: ${r.skipped}`);
    else if (r.failed) lines.push(`${r.name}: FAILED: ${r.failed}`);
    if (r.note) lines.push(`${r.name}: ${r.note}`);
  }
  return lines.join('\n');
}

/** The same table in Markdown (bench/README.md). */
export function markdownTable(results: readonly ScenarioResult[]): string {
  const rows = tableRows(results);
  const escape = (cell: string) => cell.replace(/\|/g, '\\|');
  return [
    `| ${rows[0].join(' | ')} |`,
    `| ${rows[0].map((_, i) => (i <= 1 ? '---' : '---:')).join(' | ')} |`,
    ...rows.slice(1).map((row) => `| ${row.map(escape).join(' | ')} |`),
  ].join('\n');
}

export function formatComparisons(list: readonly Comparison[]): string {
  return list
    .map(
      (c) =>
        `${c.name} / ${c.relativeTo}: req/s ratio ${c.ratio.toFixed(2)} ` +
        `(rounds ${c.rounds.min.toFixed(2)}–${c.rounds.max.toFixed(2)}; ` +
        `p50 ${ms(c.p50.of)} vs ${ms(c.p50.relativeTo)} ms, p99 ${ms(c.p99.of)} vs ${ms(c.p99.relativeTo)} ms)`,
    )
    .join('\n');
}

/** The scenarios' targets against this run's medians (a target whose figure is missing is not met). */
export function checkTargets(
  results: readonly ScenarioResult[],
  compared: readonly Comparison[],
): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const r of results) {
    if (!r.target) continue;
    if (r.target.ratio !== undefined) {
      const value = r.ratio?.median ?? null;
      checks.push({
        scenario: r.name,
        what: `app / ${r.against}`,
        value,
        atLeast: r.target.ratio,
        met: value !== null && value >= r.target.ratio,
      });
    }
    if (r.target.relative !== undefined && r.target.relativeTo) {
      const value =
        compared.find((c) => c.name === r.name && c.relativeTo === r.target!.relativeTo)?.ratio ?? null;
      checks.push({
        scenario: r.name,
        what: `app / app of "${r.target.relativeTo}"`,
        value,
        atLeast: r.target.relative,
        met: value !== null && value >= r.target.relative,
      });
    }
  }
  return checks;
}

export function formatTargets(checks: readonly TargetCheck[]): string {
  return checks
    .map(
      (c) =>
        `${c.met ? 'met    ' : 'NOT MET'}  ${c.scenario}: ${c.what} ${c.value === null ? '(not measured)' : c.value.toFixed(3)} ` +
        `(at least ${c.atLeast})`,
    )
    .join('\n');
}
