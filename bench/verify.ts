import type { Pool } from 'pg';
import type { CapturedStatement, StatementCounter } from './pg-counter';
import { spreadOf } from './report';
import { RequestFactory, type BuiltRequest, type RequestPlan } from './request-plan';
import { TWIN_HEADER, type Scenario } from './scenario-kit';

/**
 * The verify step (`npm run bench:verify`, and the first step of every bench run): each scenario's
 * request is sent to the app and to its counterpart, one at a time, both behind a counting proxy.
 *
 * - Compared: the status, the body byte for byte, and every response header except `Date` (the
 *   clock) and `X-Request-Id` (a fresh UUID per request on both sides: only its form is checked).
 *   Cursors (`nextCursor`, `previousCursor`) are sealed with a fresh IV each time, so they are
 *   compared by what they open (both sides use the app's CURSOR_SECRET): decrypted on both sides,
 *   then the bodies compared with them replaced by their keysets. A scenario may mask fields made
 *   on the spot (ids and timestamps of a created row, a measured response time) and say why
 *   (`compare.volatile` in its suite), and check what each side wrote (`compare.written`).
 * - Counted: statements per request (Execute and simple Query messages, BEGIN/COMMIT included) of
 *   VERIFY_REQUESTS requests per side after one unmeasured request; the median is reported (a
 *   background statement of the app, a pool or job check, lands in one request at most).
 */

export const VERIFY_REQUESTS = 5;

export interface CountedTarget {
  url: string;
  counter: StatementCounter;
}

export interface VerifyOutcome {
  name: string;
  /** The comparison held (or there is nothing to compare: no counterpart). */
  identical: boolean;
  differences: string[];
  statements: { app: number; twin: number | null; appRuns: number[]; twinRuns: number[] | null };
  /** What the app and the twin ran for the last counted request. */
  sql: { app: CapturedStatement[]; twin: CapturedStatement[] | null };
  /** The request sent (path only). */
  path: string;
  status: number;
  bytes: number;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface VerifyContext {
  app: CountedTarget;
  /** The counterpart (twin, or the app in another environment); null: none. */
  twin: CountedTarget | null;
  pool: Pool;
  /** Opens a cursor of either side: the listing and keyset it holds, or null. */
  openCursor: (cursor: string) => string | null;
  /** Hands out request indexes of rotating plans (never the same post twice in a run). */
  take: (count: number) => number;
}

export async function verifyScenario(
  scenario: Scenario,
  plan: RequestPlan,
  context: VerifyContext,
): Promise<VerifyOutcome> {
  const start = plan.rotate || plan.paths ? context.take(2 * (VERIFY_REQUESTS + 1)) : 0;
  const factory = new RequestFactory(
    plan.rotate
      ? { ...plan, rotate: { ...plan.rotate, start } }
      : plan.paths
        ? { ...plan, paths: { ...plan.paths, start } }
        : plan,
  );
  const twinHandler = scenario.against.kind === 'twin' ? scenario.against.handler : undefined;
  const send = (target: CountedTarget, request: BuiltRequest) =>
    fetchAnswer(target.url, request, twinHandler);
  // Request k of the app is index 2k of the plan, of the twin 2k + 1 when writes must not repeat.
  const twinIndex = (k: number) => (scenario.compare?.twinTakesNextRequest ? 2 * k + 1 : 2 * k);

  // Building a plan's requests may take seconds (thousands of signing identities): the server may
  // have closed the idle keep-alive socket meanwhile, and a write sent on it fails ("other side
  // closed") where a GET is simply sent again. A GET first takes that socket out of the pool.
  await Promise.all([context.app, context.twin].map((target) => target && wake(target.url)));

  const appRuns: number[] = [];
  const twinRuns: number[] = [];
  let appAnswer: Answer | undefined;
  let twinAnswer: Answer | undefined;
  let appSql: CapturedStatement[] = [];
  let twinSql: CapturedStatement[] | null = null;
  for (let k = 0; k <= VERIFY_REQUESTS; k++) {
    context.app.counter.takeCaptured();
    const before = context.app.counter.count();
    appAnswer = await send(context.app, factory.request(2 * k));
    await settle();
    if (k > 0) appRuns.push(context.app.counter.count() - before);
    appSql = context.app.counter.takeCaptured();
    if (context.twin) {
      context.twin.counter.takeCaptured();
      const twinBefore = context.twin.counter.count();
      twinAnswer = await send(context.twin, factory.request(twinIndex(k)));
      await settle();
      if (k > 0) twinRuns.push(context.twin.counter.count() - twinBefore);
      twinSql = context.twin.counter.takeCaptured();
    }
  }
  const differences: string[] = [];
  if (appAnswer!.status < 200 || appAnswer!.status > 299)
    differences.push(`the app answered ${appAnswer!.status}: ${appAnswer!.body.slice(0, 300)}`);
  const wanted = scenario.compare?.appHeader;
  if (wanted && appAnswer!.headers[wanted] === undefined)
    differences.push(`the app's answer has no ${wanted} header (is the limiter on?)`);
  if (context.twin && twinAnswer) {
    differences.push(...compareAnswers(scenario, appAnswer!, twinAnswer, context.openCursor));
    if (differences.length === 0 && scenario.compare?.written) {
      differences.push(
        ...(await scenario.compare.written({
          pool: context.pool,
          app: { status: appAnswer!.status, body: appAnswer!.body },
          twin: { status: twinAnswer.status, body: twinAnswer.body },
        })),
      );
    }
  }
  return {
    name: scenario.name,
    identical: differences.length === 0,
    differences,
    statements: {
      app: spreadOf(appRuns).median,
      twin: context.twin ? spreadOf(twinRuns).median : null,
      appRuns,
      twinRuns: context.twin ? twinRuns : null,
    },
    sql: { app: appSql, twin: twinSql },
    path: factory.request(0).path,
    status: appAnswer!.status,
    bytes: Buffer.byteLength(appAnswer!.body),
  };
}

/** Headers that differ between any two answers whatever the server: the clock, a fresh request id. */
const VOLATILE_HEADERS = new Set(['date', 'x-request-id']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function compareAnswers(
  scenario: Scenario,
  app: Answer,
  twin: Answer,
  openCursor: (cursor: string) => string | null,
): string[] {
  const differences: string[] = [];
  if (app.status !== twin.status) differences.push(`status: app ${app.status}, twin ${twin.status}`);
  const bodyOnly = scenario.compare?.bodyOnly ?? false;
  if (!bodyOnly) {
    const names = new Set([...Object.keys(app.headers), ...Object.keys(twin.headers)]);
    for (const name of [...names].sort()) {
      if (name === 'x-request-id') {
        for (const [side, value] of [
          ['app', app.headers[name]],
          ['twin', twin.headers[name]],
        ] as const)
          if (!UUID.test(value ?? ''))
            differences.push(`header x-request-id of the ${side} is not a UUID: ${value}`);
        continue;
      }
      if (VOLATILE_HEADERS.has(name)) continue;
      if (scenario.against.kind === 'app' && name.startsWith('ratelimit')) continue;
      if (app.headers[name] !== twin.headers[name])
        differences.push(`header ${name}: app ${show(app.headers[name])}, twin ${show(twin.headers[name])}`);
    }
  }
  const appBody = normalize(scenario, app.body, openCursor);
  const twinBody = normalize(scenario, twin.body, openCursor);
  if (appBody !== twinBody) differences.push(`body: ${firstDifference(appBody, twinBody)}`);
  return differences;
}

/** The body with cursors replaced by what they open and the scenario's volatile fields masked. */
function normalize(scenario: Scenario, body: string, openCursor: (cursor: string) => string | null): string {
  let text = body.replace(
    /"(nextCursor|previousCursor)":"([A-Za-z0-9_-]+)"/g,
    (_match, member: string, cursor: string) => {
      const opened = openCursor(cursor);
      return `"${member}":${JSON.stringify(opened === null ? `<unopenable cursor ${cursor}>` : `<cursor ${opened}>`)}`;
    },
  );
  for (const field of scenario.compare?.volatile ?? []) text = text.replace(field.pattern, field.placeholder);
  return text;
}

function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 80);
  return (
    `first difference at character ${i} (app ${a.length}, twin ${b.length} characters):\n` +
    `      app:  …${a.slice(from, i + 120)}\n      twin: …${b.slice(from, i + 120)}`
  );
}

function show(value: string | undefined): string {
  return value === undefined ? '(absent)' : JSON.stringify(value);
}

export async function fetchAnswer(
  base: string,
  request: BuiltRequest,
  twinHandler: string | undefined,
): Promise<Answer> {
  const response = await fetch(`${base}${request.path}`, {
    method: request.method,
    headers: { ...request.headers, ...(twinHandler ? { [TWIN_HEADER]: twinHandler } : {}) },
    body: request.body,
    signal: AbortSignal.timeout(30_000),
  });
  const body = await response.text();
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  return { status: response.status, headers, body };
}

/** A request that leaves the pool's sockets to `base` fresh (its own failure is of no interest). */
const wake = (base: string) =>
  fetch(`${base}/health/live`, { signal: AbortSignal.timeout(30_000) })
    .then((response) => response.arrayBuffer())
    .catch(() => undefined);

/** Lets statements issued right after the answer (after-commit work) land in this request's count. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 30));
