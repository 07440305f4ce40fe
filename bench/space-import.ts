import { createReadStream, statSync } from 'node:fs';
import { PlatIdentity, signRequestProof } from '../src/protocol/client';
import { status } from './fleet';
import { cpuMs, memory } from './process-usage';
import type { Target } from './processes';
import { call, streamTo } from './service-calls';
import { BENCH_PUBLIC_HOST } from './service-env';

const IMPORTS_PATH = '/v1/spaces/imports';
const MIB = 1024 * 1024;

/** The import's record (src/imports/dto/space-import.dto.ts). */
interface ImportRecord {
  id: string;
  state: string;
  spaceId?: string;
  failure?: string;
}

/**
 * POSTs the archive file to /v1/spaces/imports as `owner`, streamed from disk (the bench's archive
 * may be a GiB: never held whole); the queued import's record. A 413 names IMPORT_MAX_ARCHIVE_BYTES.
 */
async function postArchive(target: Target, owner: PlatIdentity, file: string): Promise<ImportRecord> {
  const headers = {
    'Content-Type': 'application/zip',
    'Content-Length': String(statSync(file).size),
    Authorization: signRequestProof({
      identity: owner,
      audience: BENCH_PUBLIC_HOST,
      method: 'POST',
      target: IMPORTS_PATH,
      jti: true,
    }).authorization,
  };
  const answer = await streamTo(target, 'POST', IMPORTS_PATH, headers, createReadStream(file));
  return JSON.parse(answer) as ImportRecord;
}

/** Polls the import every 250 ms until done or failed; rejects past `deadline` (performance.now()). */
async function settled(
  target: Target,
  owner: PlatIdentity,
  id: string,
  deadline: number,
): Promise<ImportRecord> {
  for (;;) {
    const shown = (await call(target, 'GET', `${IMPORTS_PATH}/${id}`, owner, undefined)) as ImportRecord;
    if (shown.state === 'done' || shown.state === 'failed') return shown;
    if (performance.now() > deadline) throw new Error(`the import did not finish in time (${shown.state})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The space's posts an anonymous reader lists (the public listing walked to its end, 100 a page). */
async function publicPostCount(target: Target, space: string): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&after=${encodeURIComponent(cursor)}` : '';
    const page = (await call(
      target,
      'GET',
      `/v1/spaces/${space}/posts?limit=100${query}`,
      null,
      undefined,
    )) as {
      items: unknown[];
      nextCursor: string | null;
    };
    count += page.items.length;
    cursor = page.nextCursor;
  } while (cursor);
  return count;
}

/**
 * Imports the space export in `file` as a new space of `owner` (issue 35 item 5;
 * docs/decisions/0221) and prints its figures: upload, request → done, MiB/s, the service's
 * memory and CPU; then checks the new space lists as many posts as the source. Answers the exit code.
 */
export async function measureImport(
  target: Target,
  owner: PlatIdentity,
  file: string,
  sourceSpace: string,
  timeoutS: number,
): Promise<number> {
  const size = statSync(file).size;
  status(`space import of the ${(size / MIB).toFixed(1)} MiB archive`);
  const before = { memory: memory(target), cpu: cpuMs(target) };
  const started = performance.now();
  const queued = await postArchive(target, owner, file);
  const uploaded = performance.now();
  const shown = await settled(target, owner, queued.id, started + timeoutS * 1000);
  const done = performance.now();
  const after = { memory: memory(target), cpu: cpuMs(target) };
  if (shown.state !== 'done' || !shown.spaceId) {
    status(`import ${shown.state}: ${shown.failure ?? 'no reason given'}`);
    return 1;
  }
  const seconds = (done - started) / 1000;
  const imported = await publicPostCount(target, shown.spaceId);
  const sourcePosts = await publicPostCount(target, sourceSpace);
  const report = [
    `import: upload (streamed POST → 202) ${((uploaded - started) / 1000).toFixed(1)} s`,
    `import (request → done, polled every 250 ms): ${seconds.toFixed(1)} s, ${(size / MIB / seconds).toFixed(1)} MiB/s`,
    `import: service peak RSS ${before.memory.peak.toFixed(0)} → ${after.memory.peak.toFixed(0)} MiB, ` +
      `RSS ${before.memory.now.toFixed(0)} → ${after.memory.now.toFixed(0)} MiB; ` +
      `CPU ${((after.cpu - before.cpu) / 1000).toFixed(1)} s`,
    `import: ${imported} posts listed in the new space, ${sourcePosts} in the source`,
  ];
  for (const line of report) status(line);
  if (imported !== sourcePosts) {
    status('wrong import: the post counts differ');
    return 1;
  }
  return 0;
}
