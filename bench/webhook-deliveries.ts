import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { createDisposableDatabase } from '../src/infrastructure/database/disposable-database';
import { PlatIdentity } from '../src/protocol/client';
import { findRedis, logDir, root, status } from './fleet';
import { formatProfile, summarizeProfile } from './profile';
import { startService, stopProcess, type Target } from './processes';
import { call, pct } from './service-calls';
import { mergeEnv, SERVICE_DEFAULTS } from './service-env';

/**
 * Webhook deliveries one worker sustains against a local receiver (issue 33 item 6;
 * docs/decisions/0162-webhook-delivery-state-in-postgresql.md … 0164), outside the req/s runner:
 *
 * One `PLAT_ROLE=api` and one `PLAT_ROLE=worker` replica of the built service (dist/src/main.js)
 * on one fresh database and one Redis (a fresh JOBS_REDIS_PREFIX). A receiver in this process
 * (node:http on 127.0.0.1, let through by OUTBOUND_ALLOWED_PRIVATE_HOSTS) answers 204 at once and
 * notes each arrival's time. An owner makes a public space with a public topic and
 * `WEBHOOK_BENCH_SUBSCRIPTIONS` (default 10) subscriptions to `post.created`, each on its own path;
 * then `WEBHOOK_BENCH_POSTS` (default 200) posts go through the api replica as fast as it answers,
 * `WEBHOOK_BENCH_CONCURRENCY` (default 4) at a time. Measured on the receiver: posts ×
 * subscriptions deliveries, the time from the first arrival to the last, deliveries per second,
 * post → arrival latency, duplicates (the same message id twice on one subscription's path), and
 * every delivery's `v1` signature checked with the `standardwebhooks` package.
 *
 * With `WEBHOOK_BENCH_PROFILE=1` the worker runs under `node --cpu-prof` and its samples of the
 * measured stretch are summed up by function and origin (the file stays in .data/bench-logs/).
 *
 * Exits 1 when not every delivery arrived within `WEBHOOK_BENCH_TIMEOUT_S` (default 120) of the
 * last post's answer, or on a duplicate or a signature that does not verify.
 * Run: `DATABASE_URL=<admin url> npm run bench:webhooks`.
 */

const SUBSCRIPTIONS = Number(process.env.WEBHOOK_BENCH_SUBSCRIPTIONS ?? 10);
const POSTS = Number(process.env.WEBHOOK_BENCH_POSTS ?? 200);
const CONCURRENCY = Number(process.env.WEBHOOK_BENCH_CONCURRENCY ?? 4);
const TIMEOUT_S = Number(process.env.WEBHOOK_BENCH_TIMEOUT_S ?? 120);
/** `1`: the worker runs under `node --cpu-prof`; its profile of the measured stretch is summed up. */
const PROFILE = process.env.WEBHOOK_BENCH_PROFILE === '1';
const profileDir = join(logDir, 'webhooks-profile');
/** After the last expected arrival: how long to keep listening for late duplicates. */
const LINGER_MS = 3000;

interface Arrival {
  /** performance.now() when the request's body had arrived. */
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Answers 204 at once; keeps each request as it came, parsed later (nothing slow in the handler). */
class Receiver {
  readonly arrivals: Arrival[] = [];
  port = 0;
  private expected = Infinity;
  private onAll: (() => void) | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      this.arrivals.push({
        at: performance.now(),
        path: incoming.url ?? '/',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(204).end();
      if (this.arrivals.length >= this.expected) this.onAll?.();
    });
  });

  async start(): Promise<this> {
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** Resolves true once `count` requests arrived, false after `timeoutMs`. */
  all(count: number, timeoutMs: number): Promise<boolean> {
    if (this.arrivals.length >= count) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.expected = count;
      this.onAll = () => {
        clearTimeout(timer);
        this.onAll = null;
        resolve(true);
      };
    });
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

async function main(): Promise<number> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL (a server this may create a database on) is required');
  const redisUrl = await findRedis();
  if (!redisUrl) throw new Error('no Redis answers (REDIS_URL or redis://127.0.0.1:6379)');
  mkdirSync(logDir, { recursive: true });
  const receiver = await new Receiver().start();
  const database = await createDisposableDatabase(adminUrl, 'plat_bench_webhooks');
  const env = mergeEnv(SERVICE_DEFAULTS, {
    REDIS_URL: redisUrl,
    LOG_LEVEL: 'warn',
    JOBS_REDIS_PREFIX: `plat:bench:${Date.now()}:jobs`,
    OUTBOUND_ALLOWED_PRIVATE_HOSTS: `127.0.0.1:${receiver.port}`,
  });
  const targets: Target[] = [];
  try {
    const start = (name: string, role: 'api' | 'worker') =>
      startService({
        name,
        root,
        databaseUrl: database.url,
        env: mergeEnv(env, { PLAT_ROLE: role }),
        logFile: join(logDir, `webhooks-${name}.log`),
        readyTimeoutMs: 60_000,
        nodeArgs:
          PROFILE && role === 'worker'
            ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-name=worker.cpuprofile']
            : [],
      });
    const api = await start('api', 'api');
    targets.push(api);
    const worker = await start('worker', 'worker');
    targets.push(worker);

    status(`owner, public space and topic, ${SUBSCRIPTIONS} subscriptions to post.created`);
    const owner = PlatIdentity.create();
    await call(api, 'POST', '/relay/proof/v1/operations', null, { operations: owner.log });
    await call(api, 'POST', '/users', owner, { handle: 'webhook-owner', displayName: 'Webhook Owner' });
    const space = (await call(api, 'POST', '/spaces', owner, {
      displayName: 'Webhook bench',
      description: 'A place to make things',
    })) as { id: string };
    await call(api, 'PUT', `/spaces/${space.id}/public-config`, owner, { isPublic: true, joinMode: 'open' });
    const topic = (await call(api, 'POST', `/spaces/${space.id}/topics`, owner, {
      name: 'Open',
      access: 'public',
    })) as { id: string };
    const secrets = new Map<string, string>();
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      const path = `/hook/${i}`;
      const created = (await call(api, 'POST', `/spaces/${space.id}/webhooks`, owner, {
        url: `http://127.0.0.1:${receiver.port}${path}`,
        events: ['post.created'],
      })) as { secret: string };
      secrets.set(path, created.secret);
    }

    const expected = POSTS * SUBSCRIPTIONS;
    status(`${POSTS} posts through ${api.name}, ${CONCURRENCY} at a time; ${expected} deliveries expected`);
    const cpuBefore = { api: cpuMs(api), worker: cpuMs(worker) };
    const posts = new Map<string, { sent: number; answered: number }>();
    const postingStarted = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < POSTS) {
          const n = next++;
          const sent = performance.now();
          const post = (await call(api, 'POST', `/v1/spaces/${space.id}/posts`, owner, {
            topic: topic.id,
            title: `Delivery ${n}`,
            body: `Post number ${n} of the webhook bench`,
          })) as { id: string };
          posts.set(post.id, { sent, answered: performance.now() });
        }
      }),
    );
    const postingEnded = performance.now();
    status(
      `posts answered in ${((postingEnded - postingStarted) / 1000).toFixed(1)} s; waiting for deliveries`,
    );
    const complete = await receiver.all(expected, TIMEOUT_S * 1000);
    const drained = performance.now();
    const cpuAfter = { api: cpuMs(api), worker: cpuMs(worker) };
    if (complete) await new Promise((resolve) => setTimeout(resolve, LINGER_MS));

    const stages = await serverStages(database.url);

    const arrivals = receiver.arrivals;
    const seen = new Set<string>();
    let duplicates = 0;
    let unsigned = 0;
    let unknownPost = 0;
    const fromSent: number[] = [];
    const fromAnswered: number[] = [];
    for (const arrival of arrivals) {
      const key = `${arrival.path} ${String(arrival.headers['webhook-id'])}`;
      if (seen.has(key)) duplicates++;
      seen.add(key);
      if (!verifies(secrets.get(arrival.path), arrival)) unsigned++;
      const payload = JSON.parse(arrival.body) as { data: { post: { id: string } } };
      const post = posts.get(payload.data.post.id);
      if (!post) {
        unknownPost++;
        continue;
      }
      fromSent.push(arrival.at - post.sent);
      fromAnswered.push(arrival.at - post.answered);
    }
    const times = arrivals.map((arrival) => arrival.at);
    const first = times.length > 0 ? Math.min(...times) : NaN;
    const last = times.length > 0 ? Math.max(...times) : NaN;
    const span = (last - first) / 1000;
    const postingSeconds = (postingEnded - postingStarted) / 1000;

    const line = (label: string, value: string) => console.log(`${label.padEnd(52)} ${value}`);
    console.log('');
    line('subscriptions × posts = deliveries expected', `${SUBSCRIPTIONS} × ${POSTS} = ${expected}`);
    line('deliveries arrived (all within the timeout?)', `${arrivals.length} (${complete ? 'yes' : 'NO'})`);
    line(
      'posts: time to answer all (s) / posts per second',
      `${postingSeconds.toFixed(2)} / ${(POSTS / postingSeconds).toFixed(1)}`,
    );
    line('first → last arrival (s)', span.toFixed(2));
    line(
      'deliveries per second, one worker',
      arrivals.length > 1 ? ((arrivals.length - 1) / span).toFixed(1) : '-',
    );
    // Once the posts are in, the worker no longer shares the cores with the api's writes.
    const after = times.filter((at) => at > postingEnded).length;
    line(
      'deliveries per second after the last post answered',
      after > 0 ? `${(after / ((last - postingEnded) / 1000)).toFixed(1)} (${after} deliveries)` : '-',
    );
    line('last post answered → last arrival (s)', ((last - postingEnded) / 1000).toFixed(2));
    if (fromSent.length > 0) {
      line(
        'post sent → arrival p50 / p99 / max (ms)',
        `${pct(fromSent, 0.5)} / ${pct(fromSent, 0.99)} / ${pct(fromSent, 1)}`,
      );
      line(
        'post answered → arrival p50 / p99 / max (ms)',
        `${pct(fromAnswered, 0.5)} / ${pct(fromAnswered, 0.99)} / ${pct(fromAnswered, 1)}`,
      );
    }
    line('server: post written → delivery stored p50 / p99 (ms)', `${stages.stored50} / ${stages.stored99}`);
    line('server: stored → attempt recorded p50 / p99 (ms)', `${stages.attempted50} / ${stages.attempted99}`);
    line('server: the POST itself p50 / p99 (ms)', `${stages.latency50} / ${stages.latency99}`);
    line('server: deliveries attempted more than once', String(stages.retried));
    // Arrivals per half second since the first post was sent: a backlog, a stall, a sweep's burst.
    const buckets: number[] = [];
    for (const at of times) {
      const bucket = Math.floor((at - postingStarted) / 500);
      while (buckets.length <= bucket) buckets.push(0);
      buckets[bucket]++;
    }
    line('arrivals per 0.5 s since the first post', buckets.join(' '));
    line('duplicates (same webhook-id on one subscription)', String(duplicates));
    line('signatures verified (standardwebhooks)', `${arrivals.length - unsigned} of ${arrivals.length}`);
    if (unknownPost > 0) line('arrivals naming a post not sent here', String(unknownPost));
    const workerCpu = cpuAfter.worker.total - cpuBefore.worker.total;
    const apiCpu = cpuAfter.api.total - cpuBefore.api.total;
    line(
      'worker CPU user / system (s)',
      `${((cpuAfter.worker.user - cpuBefore.worker.user) / 1000).toFixed(2)} / ${(
        (cpuAfter.worker.system - cpuBefore.worker.system) /
        1000
      ).toFixed(2)}`,
    );
    line(
      'CPU while measured, worker / api (s)',
      `${(workerCpu / 1000).toFixed(2)} / ${(apiCpu / 1000).toFixed(2)}`,
    );
    if (arrivals.length > 0) line('worker CPU per delivery (ms)', (workerCpu / arrivals.length).toFixed(2));
    line(
      'measured until the last arrival or the timeout (s)',
      ((drained - postingStarted) / 1000).toFixed(2),
    );

    if (PROFILE) {
      // The profile is written as the worker exits; the window is the posts' start to the last arrival.
      await stopProcess(worker.child);
      const exited = performance.now();
      targets.splice(targets.indexOf(worker), 1);
      const summary = summarizeProfile(join(profileDir, 'worker.cpuprofile'), root, {
        endedMsBeforeEnd: exited - drained,
        lengthMs: drained - postingStarted,
      });
      console.log(`\n${formatProfile('worker, posts sent → last arrival', summary)}`);
    }

    const problems: string[] = [];
    if (!complete)
      problems.push(`${expected - arrivals.length} deliveries did not arrive within ${TIMEOUT_S} s`);
    if (duplicates > 0) problems.push(`${duplicates} duplicate deliveries`);
    if (unsigned > 0) problems.push(`${unsigned} deliveries whose signature does not verify`);
    if (arrivals.length > expected)
      problems.push(`${arrivals.length - expected} deliveries more than expected`);
    for (const problem of problems) console.error(`[bench] FAILED: ${problem}`);
    return problems.length === 0 ? 0 : 1;
  } finally {
    for (const target of targets) await stopProcess(target.child);
    await database.drop();
    await receiver.stop();
  }
}

/**
 * Where the time went, by the service's own clock (one machine): the occurrence's timestamp (the
 * write's) → the delivery row stored by the fan-out job → the attempt's outcome recorded (queue
 * wait, claim, the POST), and the POST alone (last_latency_ms).
 */
async function serverStages(url: string) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<Record<string, string | null>>(
      `WITH d AS (
         SELECT 1000 * extract(epoch FROM created_at - (body::jsonb->>'timestamp')::timestamptz) AS stored,
                1000 * extract(epoch FROM last_attempt_at - created_at) AS attempted,
                last_latency_ms AS latency, attempts
           FROM webhook_deliveries)
       SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY stored) AS stored50,
              percentile_cont(0.99) WITHIN GROUP (ORDER BY stored) AS stored99,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY attempted) AS attempted50,
              percentile_cont(0.99) WITHIN GROUP (ORDER BY attempted) AS attempted99,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY latency) AS latency50,
              percentile_cont(0.99) WITHIN GROUP (ORDER BY latency) AS latency99,
              count(*) FILTER (WHERE attempts > 1) AS retried
         FROM d`,
    );
    const row = rows[0];
    const ms = (value: string | null | undefined) => (value == null ? '-' : Number(value).toFixed(1));
    return {
      stored50: ms(row.stored50),
      stored99: ms(row.stored99),
      attempted50: ms(row.attempted50),
      attempted99: ms(row.attempted99),
      latency50: ms(row.latency50),
      latency99: ms(row.latency99),
      retried: row.retried ?? '0',
    };
  } finally {
    await client.end();
  }
}

/** The delivery's `v1` signature under its subscription's secret, by the `standardwebhooks` package. */
function verifies(secret: string | undefined, arrival: Arrival): boolean {
  if (!secret) return false;
  try {
    new StandardWebhook(secret).verify(arrival.body, {
      'webhook-id': arrival.headers['webhook-id'] as string,
      'webhook-timestamp': arrival.headers['webhook-timestamp'] as string,
      // The package reads only the `v1,` entries; the Ed25519 `v1a,` beside them is skipped.
      'webhook-signature': arrival.headers['webhook-signature'] as string,
    });
    return true;
  } catch {
    return false;
  }
}

/** User and system CPU time of a process so far, ms (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuMs(target: Target): { user: number; system: number; total: number } {
  const stat = readFileSync(`/proc/${target.child.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the command.
  const user = Number(fields[11]) * 10;
  const system = Number(fields[12]) * 10;
  return { user, system, total: user + system };
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
