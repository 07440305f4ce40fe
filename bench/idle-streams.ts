import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { PlatIdentity, signRequestProof } from '../src/protocol/client';
import { status } from './fleet';
import type { Target } from './processes';
import { call } from './service-calls';
import { BENCH_PUBLIC_HOST } from './service-env';

/**
 * Idle live streams held by the app while it is measured (issue 33 item 6: "a replica holding
 * 5,000 idle streams: the read scenarios' ratios unchanged within noise";
 * docs/decisions/0170-a-live-stream-of-notifications.md). `BENCH_IDLE_STREAMS=N` makes the runner
 * open N `GET /v1/stream` streams on every app process of a read scenario before its load starts
 * and close them after; the counterpart holds none. Compare the ratios of a run with it and one
 * without (bench/README.md, "Idle streams during the reads").
 */

/** Streams of one person: the default `STREAM_MAX_PER_IDENTITY` (the cap answers 429 past it). */
export const STREAMS_PER_PERSON = 5;
/** Opened side by side, as bench/stream.ts does. */
const OPEN_BATCH = 100;

/** BENCH_IDLE_STREAMS as a count (0: none). */
export function idleStreamsWanted(env: NodeJS.ProcessEnv): number {
  const raw = env.BENCH_IDLE_STREAMS;
  if (raw === undefined || raw === '' || raw === '0') return 0;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`BENCH_IDLE_STREAMS must be a whole number, got "${raw}"`);
  return value;
}

/** The scenario groups whose app holds the streams. */
export function holdsIdleStreams(group: string): boolean {
  return group === 'read' || group === 'authenticated read';
}

/** The people are published once a run (their identities stay in the run's database). */
let people: Promise<PlatIdentity[]> | null = null;

function peopleFor(target: Target, count: number): Promise<PlatIdentity[]> {
  people ??= (async () => {
    const made = Array.from({ length: Math.ceil(count / STREAMS_PER_PERSON) }, () => PlatIdentity.create());
    status(`idle streams: publishing ${made.length} identities`);
    for (let i = 0; i < made.length; i += 100) {
      const operations = made.slice(i, i + 100).flatMap((person) => person.log);
      await call(target, 'POST', '/relay/proof/v1/operations', null, { operations });
    }
    return made;
  })();
  return people;
}

export interface HeldStreams {
  count: number;
  /** The process's resident set before the first open and once all are open (bytes). */
  rssBefore: number;
  rssAfter: number;
  /** Opens refused (503 or 429) and tried again. */
  retried: number;
  close(): void;
}

/** Opens `count` idle streams on `target` (round robin over the people, 5 each at most). */
export async function holdIdleStreams(target: Target, count: number): Promise<HeldStreams> {
  const persons = await peopleFor(target, count);
  const rssBefore = rssOf(target);
  const closers: Array<() => void> = [];
  let retried = 0;
  const opening = async (person: PlatIdentity) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await openStream(target, person, () => undefined);
      } catch (error) {
        if (!/answered (503|429)/.test(String(error)) || attempt >= 10) throw error;
        retried++;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  };
  try {
    for (let i = 0; i < count; i += OPEN_BATCH) {
      const batch = [];
      for (let j = i; j < Math.min(count, i + OPEN_BATCH); j++)
        batch.push(opening(persons[j % persons.length]));
      closers.push(...(await Promise.all(batch)).map((stream) => stream.close));
    }
  } catch (error) {
    for (const close of closers) close();
    throw error;
  }
  // Let the opens' garbage go before the resident set is read.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  return {
    count,
    rssBefore,
    rssAfter: rssOf(target),
    retried,
    close: () => {
      for (const close of closers) close();
    },
  };
}

/** A stream of `person` on `target`; resolves once it is live (its first line). */
export function openStream(
  target: Target,
  person: PlatIdentity,
  onEvent: () => void,
): Promise<{ close: () => void }> {
  const path = '/v1/stream';
  const { authorization } = signRequestProof({
    identity: person,
    audience: BENCH_PUBLIC_HOST,
    method: 'GET',
    target: path,
  });
  return new Promise((resolve, reject) => {
    const call = httpRequest(
      { host: '127.0.0.1', port: target.port, path, headers: { Authorization: authorization } },
      (response) => {
        if (response.statusCode !== 200) {
          let answer = '';
          response.on('data', (chunk: Buffer) => (answer += chunk.toString()));
          response.on('end', () => reject(new Error(`stream answered ${response.statusCode} ${answer}`)));
          return;
        }
        response.setEncoding('utf8');
        // A stream the server ends (drain, restart) is just over; nothing waits on it.
        response.on('error', () => undefined);
        let live = false;
        response.on('data', (chunk: string) => {
          if (!live) {
            live = true;
            resolve({ close: () => call.destroy() });
          }
          if (chunk.includes('event: notification')) onEvent();
        });
      },
    );
    call.on('error', reject);
    call.end();
  });
}

/** The process's resident set (VmRSS, bytes), 0 off Linux. */
export function rssOf(target: Target): number {
  try {
    const line = readFileSync(`/proc/${target.child.pid}/status`, 'utf8')
      .split('\n')
      .find((row) => row.startsWith('VmRSS:'));
    return Number(line?.match(/(\d+)/)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}
