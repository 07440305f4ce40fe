import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createDisposableDatabase } from '../src/infrastructure/database/disposable-database';
import { PlatIdentity } from '../src/protocol/client';
import { findRedis, logDir, root, status } from './fleet';
import { openStream, rssOf } from './idle-streams';
import { startService, stopProcess, type Target } from './processes';
import { call, pct } from './service-calls';
import { mergeEnv, SERVICE_DEFAULTS } from './service-env';

/**
 * The live stream's costs (issue 33 item 6; docs/decisions/0170-a-live-stream-of-notifications.md),
 * outside the req/s runner (bench/run.ts measures request pairs; a stream is one long answer):
 *
 * 1. RSS per idle stream: replica A holds `STREAM_BENCH_IDLE` (default 5,000) open streams of
 *    `STREAM_BENCH_PEOPLE` people; its resident set (/proc/<pid>/status VmRSS) before and after,
 *    settled, divided by the count.
 *    Beside it, `STREAM_BENCH_READS` (300) sequential anonymous `GET /v1/spaces` on A before the
 *    streams and while it holds them: p50 and p99 (a latency, not the runner's req/s ratio).
 * 2. Write → event latency across two replicas: a person's stream is held by replica B; another
 *    member comments on the person's post through replica A, one comment at a time; the time from
 *    sending the comment to the event arriving on B, `STREAM_BENCH_SAMPLES` (default 200) times.
 *
 * Both replicas are the built service (dist/src/main.js) on one fresh database and one Redis.
 * Run: `DATABASE_URL=<admin url> npm run bench:stream`.
 */

const IDLE = Number(process.env.STREAM_BENCH_IDLE ?? 5000);
const PEOPLE = Number(process.env.STREAM_BENCH_PEOPLE ?? 500);
const SAMPLES = Number(process.env.STREAM_BENCH_SAMPLES ?? 200);
const READS = Number(process.env.STREAM_BENCH_READS ?? 300);

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL (a server this may create a database on) is required');
  const redisUrl = await findRedis();
  if (!redisUrl) throw new Error('no Redis answers (REDIS_URL or redis://127.0.0.1:6379)');
  mkdirSync(logDir, { recursive: true });
  const database = await createDisposableDatabase(adminUrl, 'plat_bench_stream');
  const env = mergeEnv(SERVICE_DEFAULTS, {
    REDIS_URL: redisUrl,
    LOG_LEVEL: 'warn',
    STREAM_MAX_PER_IDENTITY: '1000',
    STREAM_REDIS_PREFIX: `plat:bench:${Date.now()}:stream:`,
  });
  const targets: Target[] = [];
  try {
    const start = (name: string) =>
      startService({
        name,
        root,
        databaseUrl: database.url,
        env,
        logFile: join(logDir, `stream-${name}.log`),
        readyTimeoutMs: 60_000,
      });
    const a = await start('replica-a');
    targets.push(a);
    const b = await start('replica-b');
    targets.push(b);

    status(`publishing ${PEOPLE} identities`);
    const people = Array.from({ length: PEOPLE }, () => PlatIdentity.create());
    for (let i = 0; i < people.length; i += 100) {
      const operations = people.slice(i, i + 100).flatMap((person) => person.log);
      await call(a, 'POST', '/relay/proof/v1/operations', null, { operations });
    }

    const idle = await idleStreams(a, people);
    const latency = await writeToEventLatency(a, b);
    const line = (label: string, value: string) => console.log(`${label.padEnd(48)} ${value}`);
    console.log('');
    line('idle streams held by one replica', String(idle.count));
    line('replica RSS before / after (MiB)', `${mib(idle.before)} / ${mib(idle.after)}`);
    line('RSS per idle stream (KiB)', ((idle.after - idle.before) / idle.count / 1024).toFixed(1));
    line('opens refused with 503 and retried', String(idle.refused));
    const { readsBefore, readsWith } = idle;
    line(
      'GET /v1/spaces p50 / p99 without streams (ms)',
      `${pct(readsBefore, 0.5)} / ${pct(readsBefore, 0.99)}`,
    );
    line('GET /v1/spaces p50 / p99 with them (ms)', `${pct(readsWith, 0.5)} / ${pct(readsWith, 0.99)}`);
    const { samples, answered } = latency;
    line('write → event across replicas, samples', String(samples.length));
    line('p50 / p99 / max (ms)', `${pct(samples, 0.5)} / ${pct(samples, 0.99)} / ${pct(samples, 1)}`);
    line('the comment POST answered, p50 / p99 (ms)', `${pct(answered, 0.5)} / ${pct(answered, 0.99)}`);
  } finally {
    for (const target of targets) await stopProcess(target.child);
    await database.drop();
  }
}

/** Opens IDLE streams on `target` (round robin over the people) and measures its RSS. */
async function idleStreams(target: Target, people: PlatIdentity[]) {
  await readLatencies(target); // warm-up: the first reads of a fresh process are slower
  await settle();
  const before = rssOf(target);
  const readsBefore = await readLatencies(target);
  status(`opening ${IDLE} idle streams on ${target.name}`);
  const streams: Array<() => void> = [];
  for (let i = 0; i < IDLE; i += 100) {
    const batch = [];
    for (let j = i; j < Math.min(IDLE, i + 100); j++) {
      batch.push(openRetrying(target, people[j % people.length]));
    }
    streams.push(...(await Promise.all(batch)).map((stream) => stream.close));
  }
  await settle();
  const after = rssOf(target);
  const readsWith = await readLatencies(target);
  for (const close of streams) close();
  return { count: streams.length, before, after, readsBefore, readsWith, refused };
}

/** Stream opens refused (503: Redis did not answer within REDIS_TIMEOUT_MS under the burst). */
let refused = 0;

/** As a client would: a refused open is tried again after a moment. */
async function openRetrying(target: Target, person: PlatIdentity): Promise<{ close: () => void }> {
  for (;;) {
    try {
      return await openStream(target, person, () => undefined);
    } catch (error) {
      if (!String(error).includes('answered 503')) throw error;
      refused++;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/** READS sequential anonymous `GET /v1/spaces` on `target`: ms each. */
async function readLatencies(target: Target): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < READS; i++) {
    const started = performance.now();
    await call(target, 'GET', '/v1/spaces', null, undefined);
    samples.push(performance.now() - started);
  }
  return samples;
}

/** Comments through A on a post of a person whose stream is on B; ms from send to event. */
async function writeToEventLatency(a: Target, b: Target): Promise<{ samples: number[]; answered: number[] }> {
  const author = PlatIdentity.create();
  const commenter = PlatIdentity.create();
  await call(a, 'POST', '/relay/proof/v1/operations', null, {
    operations: [...author.log, ...commenter.log],
  });
  await call(a, 'POST', '/users', author, { handle: 'stream-author', displayName: 'Stream Author' });
  await call(a, 'POST', '/users', commenter, { handle: 'stream-commenter' });
  const space = (await call(a, 'POST', '/spaces', author, { displayName: 'Stream bench' })) as { id: string };
  const invite = (await call(a, 'POST', `/spaces/${space.id}/my-invite`, author, {})) as {
    inviteCode: string;
  };
  await call(a, 'POST', `/spaces/join/${invite.inviteCode}`, commenter, {});
  const topic = (await call(a, 'POST', `/spaces/${space.id}/topics`, author, {
    name: 'Open',
    access: 'members',
  })) as { id: string };
  const post = (await call(a, 'POST', `/v1/spaces/${space.id}/posts`, author, {
    topic: topic.id,
    title: 'Latency',
    body: 'Comments here',
  })) as { id: string };

  let arrived: (() => void) | null = null;
  const stream = await openStream(b, author, () => arrived?.());
  status(`${SAMPLES} comments through ${a.name}, events on ${b.name}`);
  const samples: number[] = [];
  const answered: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const event = new Promise<void>((resolve) => (arrived = resolve));
    const sent = performance.now();
    const written = call(a, 'POST', `/v1/spaces/${space.id}/posts/${post.id}/comments`, commenter, {
      body: `comment ${i}`,
    });
    await event;
    samples.push(performance.now() - sent);
    await written;
    answered.push(performance.now() - sent);
  }
  stream.close();
  return { samples, answered };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 3000));
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
