import autocannon from 'autocannon';
import { summarize, type RunSummary } from './report';
import { RequestFactory, type RequestPlan } from './request-plan';
import type { AlongsideLoad } from './scenario-kit';

/**
 * The load generator: autocannon in a process of its own, started by the harness pinned to its own
 * core (taskset), so it never shares an event loop or a core with the server it measures. Gets one
 * job over IPC, fires it (warm-up, then the measured run), answers with the summary and exits.
 *
 * A plan whose requests differ (writes: a fresh jti per request, a post per request) is built
 * request by request in autocannon's setupRequest; a fixed request is built once.
 */

export interface LoadJob {
  url: string;
  plan: RequestPlan;
  /** Extra headers on every request (the twin's routing header). */
  headers: Record<string, string>;
  connections: number;
  durationSeconds: number;
  /** The warm-up lasts at least this long… */
  warmupSeconds: number;
  /** …and until this many answers, but never longer than `warmupMaxSeconds` (BenchConfig). */
  warmupRequests: number;
  warmupMaxSeconds: number;
  /** A second load at the same server, over the warm-up and the run (never at a twin). */
  alongside?: AlongsideLoad;
}

export type LoadReport =
  | {
      type: 'done';
      summary: RunSummary;
      requestsBuilt: number;
      alongside?: { requestsPerSecond: number; errors: number };
    }
  | { type: 'error'; message: string };

async function run(job: LoadJob): Promise<LoadReport> {
  const factory = new RequestFactory(job.plan);
  const dynamic =
    job.plan.proof?.perRequest === true || job.plan.rotate !== undefined || job.plan.paths !== undefined;
  let built = 0;
  const first = factory.request(0);
  const request = dynamic
    ? {
        setupRequest: (current: Record<string, unknown>) => {
          const next = factory.request(built++);
          return { ...current, ...next, headers: { ...next.headers, ...job.headers } };
        },
      }
    : { ...first, headers: { ...first.headers, ...job.headers } };
  const beside = job.alongside
    ? autocannon({
        url: `${job.url}${job.alongside.path}`,
        method: job.alongside.method,
        headers: job.alongside.headers,
        body: job.alongside.body,
        connections: job.alongside.connections,
        overallRate: job.alongside.requestsPerSecond,
        duration: job.warmupMaxSeconds + job.durationSeconds,
      })
    : undefined;
  const warmup = await warmUp(job, request);
  const result = await autocannon({
    url: job.url,
    connections: job.connections,
    duration: job.durationSeconds,
    requests: [request],
  });
  beside?.stop();
  const other = beside ? await beside : undefined;
  return {
    type: 'done',
    summary: summarize({ ...result, warmup }),
    requestsBuilt: dynamic ? built : 0,
    ...(other ? { alongside: { requestsPerSecond: other.requests.average, errors: other.errors } } : {}),
  };
}

/**
 * The discarded load before the measured one: at least `warmupSeconds`, and on until
 * `warmupRequests` answers (at most `warmupMaxSeconds`): a fresh app process runs its first
 * thousands of database-backed requests with young collections ten times their later length, until
 * V8 has optimized the request path (bench/README.md "Warm-up"); a fixed time ended that phase on
 * a fast scenario and left it in the measured seconds of a slower one.
 */
async function warmUp(job: LoadJob, request: autocannon.RequestSpec): Promise<autocannon.Result> {
  const instance = autocannon({
    url: job.url,
    connections: job.connections,
    duration: job.warmupMaxSeconds,
    requests: [request],
  });
  const started = Date.now();
  let answered = 0;
  instance.on('response', () => {
    answered += 1;
    if (answered >= job.warmupRequests && Date.now() - started >= job.warmupSeconds * 1000) instance.stop();
  });
  return instance;
}

process.once('message', (job: LoadJob) => {
  run(job)
    .catch((error: unknown): LoadReport => ({
      type: 'error',
      message: error instanceof Error ? error.message : String(error),
    }))
    .then((report) => process.send!(report, undefined, {}, () => process.exit(0)));
});
