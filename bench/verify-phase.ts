import { join } from 'node:path';
import type { Pool } from 'pg';
import { createActors, type Actors } from './actors';
import { compactSql, explainOnlyRequests } from './explain';
import { checkLoopback, live, logDir, root, status, stopAll, twinEnv, type Planned } from './fleet';
import { startStatementCounter, type CapturedStatement, type StatementCounter } from './pg-counter';
import { startNodeServer, startService, type Target } from './processes';
import { RequestFactory } from './request-plan';
import { SkipScenario, type PlanContext, type RunFacts } from './scenario-kit';
import type { SeedPlan } from './seed-plan';
import {
  BENCH_PUBLIC_HOST,
  describeEnv,
  envKey,
  mergeEnv,
  SERVICE_DEFAULTS,
  type ServiceEnv,
} from './service-env';
import { TwinCursors } from './twin/cursors';
import { fetchAnswer, verifyScenario, type CountedTarget } from './verify';

/** Listings whose statements go to the EXPLAIN section. */
const EXPLAINED =
  /posts (first|deep)|member view|comment thread|feed|spaces (first|deep)|users directory|store product listing|events listing/;

/**
 * The verify step of a run: one app process per environment and one twin, each behind its own
 * counting proxy; the bench actors; each scenario's request worked out and verified
 * (bench/verify.ts). With `explain`, the explain-only listings too. Stops what it started.
 */
export async function verifyAll(
  planned: Planned[],
  context: {
    databaseUrl: string;
    pool: Pool;
    plan: SeedPlan;
    facts: RunFacts;
    problems: string[];
    /** Also fetch the explain-only listings (bench/explain.ts) and keep their statements. */
    explain: boolean;
  },
): Promise<{ listingStatements: { scenario: string; statements: CapturedStatement[] }[] }> {
  const postgres = new URL(context.databaseUrl);
  const upstream = { host: postgres.hostname, port: Number(postgres.port || 5432) };
  const counters: StatementCounter[] = [];
  const counted = async (name: string, start: (url: string) => Promise<Target>): Promise<CountedTarget> => {
    const counter = await startStatementCounter(upstream, { capture: true });
    counters.push(counter);
    const proxied = new URL(context.databaseUrl);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(counter.port);
    const target = await start(proxied.toString());
    live.add(target);
    await checkLoopback(target, context.problems);
    status(`verify: ${name} started`);
    return { url: target.url, counter };
  };
  const apps = new Map<string, Promise<CountedTarget>>();
  const appFor = (env: ServiceEnv) => {
    const key = envKey(env);
    let app = apps.get(key);
    if (!app) {
      const label = describeEnv(env);
      const logFile = join(logDir, `verify-app-${apps.size + 1}.log`);
      app = counted(`app (${label})`, (url) =>
        startService({
          name: `app (${label})`,
          root,
          databaseUrl: url,
          env,
          logFile,
          readyTimeoutMs: 60_000,
          bootRefreshDatabaseUrl: context.databaseUrl,
        }),
      );
      apps.set(key, app);
    }
    return app;
  };
  let twin: Promise<CountedTarget> | undefined;
  const twinTarget = () =>
    (twin ??= counted('bare twin', (url) =>
      startNodeServer({
        name: 'twin',
        script: join(root, 'dist/bench/twin/server.js'),
        env: twinEnv(url),
        logFile: join(logDir, 'verify-twin.log'),
      }),
    ));
  const ceilings = async (): Promise<[CountedTarget, CountedTarget]> => {
    const [nest, raw] = await Promise.all(
      ['nest-hello', 'raw-hello'].map(async (name) => {
        const target = await startNodeServer({
          name,
          script: join(root, `dist/bench/ceiling/${name}.js`),
          env: {},
          logFile: join(logDir, `verify-${name}.log`),
        });
        live.add(target);
        return { url: target.url, counter: NO_COUNTER };
      }),
    );
    return [nest, raw];
  };

  const defaultApp = await appFor(mergeEnv(SERVICE_DEFAULTS));
  const actors: Actors = await createActors(
    { appUrl: defaultApp.url, audience: BENCH_PUBLIC_HOST, pool: context.pool, plan: context.plan },
    status,
  );
  const planContext: PlanContext = {
    appUrl: defaultApp.url,
    audience: BENCH_PUBLIC_HOST,
    pool: context.pool,
    plan: context.plan,
    actors,
    log: status,
  };
  const listingStatements: { scenario: string; statements: CapturedStatement[] }[] = [];
  const cursors = new TwinCursors(SERVICE_DEFAULTS.CURSOR_SECRET!);
  for (const entry of planned) {
    if (entry.skipped) continue;
    const { scenario } = entry;
    try {
      entry.request = await scenario.request(planContext);
      // Prepared paths are counted from their first (the post numbers' offset is for `rotate`).
      if (entry.request.paths) entry.cursor = 0;
      const { against } = scenario;
      let app: CountedTarget;
      let other: CountedTarget | null;
      if (against.kind === 'ceiling') [app, other] = await ceilings();
      else {
        app = await appFor(entry.appEnv);
        other =
          against.kind === 'twin'
            ? await twinTarget()
            : against.kind === 'app'
              ? await appFor(entry.counterpartEnv!)
              : null;
      }
      if (scenario.beforePhase) await scenario.beforePhase(context.pool);
      entry.verified = await verifyScenario(scenario, entry.request, {
        app,
        twin: other,
        pool: context.pool,
        openCursor: (cursor) => openCursor(cursors, cursor),
        take: (count) => {
          const start = entry.cursor;
          entry.cursor += count;
          return start;
        },
      });
      if (EXPLAINED.test(scenario.name))
        listingStatements.push({ scenario: scenario.name, statements: entry.verified.sql.app });
      const { statements } = entry.verified;
      status(
        `verify: ${scenario.name}: ${entry.verified.identical ? 'same' : 'DIFFERENT'} ` +
          `(${entry.verified.status}, ${entry.verified.bytes} bytes; statements app ${statements.app}` +
          `${statements.twin === null ? '' : `, counterpart ${statements.twin}`})`,
      );
    } catch (error) {
      if (error instanceof SkipScenario) entry.skipped = error.message;
      else {
        entry.failed = error instanceof Error ? error.message : String(error);
        context.problems.push(`${scenario.name}: ${entry.failed}`);
      }
      status(
        `verify: ${scenario.name}: ${entry.skipped ? `skipped (${entry.skipped})` : `FAILED (${entry.failed})`}`,
      );
    }
  }
  if (context.explain) {
    for (const { name, plan } of await explainOnlyRequests(planContext)) {
      defaultApp.counter.takeCaptured();
      const answer = await fetchAnswer(defaultApp.url, new RequestFactory(plan).request(0), undefined);
      await new Promise((resolve) => setTimeout(resolve, 30));
      const statements = defaultApp.counter.takeCaptured();
      if (answer.status === 200) listingStatements.push({ scenario: name, statements });
      else context.problems.push(`explain: ${name} answered ${answer.status}: ${answer.body.slice(0, 200)}`);
    }
  }
  await stopAll();
  for (const counter of counters) await counter.close();
  return { listingStatements };
}

/** The listings' cursor names, to open either side's cursors for the comparison. */
const LISTINGS = [
  'space-posts:DESC',
  'space-posts:ASC',
  'feed',
  'public-spaces',
  'public-users',
  'comments:roots:newest',
  'public-store-products',
  'space-events',
  'upcoming-events',
  'search',
];

function openCursor(
  cursors: { decode(listing: string, cursor: string): unknown[] | null },
  cursor: string,
): string | null {
  for (const listing of LISTINGS) {
    const values = cursors.decode(listing, cursor);
    if (values) return `${listing} ${JSON.stringify(values)}`;
  }
  return null;
}

const NO_COUNTER: StatementCounter = {
  port: 0,
  count: () => 0,
  takeCaptured: () => [],
  close: async () => undefined,
};

export function printVerify(planned: Planned[]): void {
  const lines = [
    '',
    'verify (status, bytes and headers of one request on each side; statements per request):',
  ];
  for (const { scenario, verified, skipped, failed } of planned) {
    if (skipped) lines.push(`  ${scenario.name}: skipped (${skipped})`);
    else if (failed) lines.push(`  ${scenario.name}: FAILED (${failed})`);
    else if (verified) {
      const s = verified.statements;
      lines.push(
        `  ${verified.identical ? 'same' : 'DIFF'}  ${scenario.name}: ${verified.status}, ${verified.bytes} bytes, ` +
          `statements app ${s.app} [${s.appRuns.join(' ')}]` +
          (s.twin === null ? '' : `, counterpart ${s.twin} [${s.twinRuns!.join(' ')}]`),
      );
      for (const difference of verified.differences) lines.push(`        ${difference}`);
      if (process.env.BENCH_VERIFY_SQL === '1') {
        lines.push('        app ran:', ...sqlText(verified.sql.app).map((sql) => `          ${sql}`));
        if (verified.sql.twin)
          lines.push(
            '        counterpart ran:',
            ...sqlText(verified.sql.twin).map((sql) => `          ${sql}`),
          );
      }
    }
  }
  console.log(lines.join('\n'));
}

export function sqlText(statements: CapturedStatement[] | null): string[] {
  return (statements ?? []).map((s) => compactSql(s.sql));
}
