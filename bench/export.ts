import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { open as openZip, type Entry, type ZipFile } from 'yauzl';
import { createDisposableDatabase } from '../src/infrastructure/database/disposable-database';
import { PlatIdentity } from '../src/protocol/client';
import { findRedis, logDir, root, status } from './fleet';
import { cpuMs, memory } from './process-usage';
import { startService, stopProcess, type Target } from './processes';
import { call, streamTo } from './service-calls';
import { mergeEnv, SERVICE_DEFAULTS } from './service-env';
import { measureImport } from './space-import';

/**
 * A personal export of one person (issue 35 item 3; docs/decisions/0210 … 0213), or with
 * `EXPORT_BENCH_KIND=space` the owner's export of the space holding those posts and files
 * (item 4; docs/decisions/0215 … 0218), outside the req/s runner. One `PLAT_ROLE=all` process of the built service (dist/src/main.js) on a fresh database,
 * a fresh media directory and a fresh Redis prefix. The person publishes `EXPORT_BENCH_POSTS`
 * posts (default 1,000; the issue's figure is 10,000) in a public topic, 8 at a time, and uploads
 * `EXPORT_BENCH_MEDIA_MB` MiB of incompressible files (default 64; the issue's figure is 1024) of
 * `EXPORT_BENCH_FILE_MB` MiB each (default 16, at most MEDIA_MAX_FILE_BYTES), streamed from
 * random bytes. Then `POST /v1/exports`, polled every 250 ms until ready: the build's time, its
 * throughput, the service's peak resident memory (VmHWM) before and after and its CPU time; then
 * the download by the signed URL to a file, the zip opened with yauzl, its entries counted, its
 * largest JSON file named (an import's IMPORT_MAX_FILE_BYTES) and `posts.json` checked to hold every post. Exits 1 when the export fails or the archive is wrong.
 *
 * With `EXPORT_BENCH_IMPORT=1` (space exports only) the downloaded archive is then imported by the
 * same owner as a second space (item 5; docs/decisions/0220, 0221; bench/space-import.ts): the file
 * streamed from disk to `POST /v1/spaces/imports`, polled every 250 ms until done or failed (within
 * `EXPORT_BENCH_TIMEOUT_S`): the upload's time, request → done and its MiB/s, the service's peak and
 * current RSS before and after, its CPU time, and the new space's public post listing walked to its
 * end and checked against the source's. Exits 1, with the import's failure, when it fails or the
 * counts differ. The service's IMPORT_MAX_ARCHIVE_BYTES is `EXPORT_BENCH_IMPORT_MAX_BYTES` when set
 * (else its default, 2 GiB). The imported files are the owner's uploads too, but the
 * import checks no quota and SERVICE_DEFAULTS' daily quota (1 TiB) is far above export plus import.
 *
 * Run: `DATABASE_URL=<admin url> npm run bench:export`; the full size:
 * `EXPORT_BENCH_POSTS=10000 EXPORT_BENCH_MEDIA_MB=1024 DATABASE_URL=… npm run bench:export`; with
 * the import: `EXPORT_BENCH_KIND=space EXPORT_BENCH_IMPORT=1 DATABASE_URL=… npm run bench:export`.
 */

const KIND = process.env.EXPORT_BENCH_KIND === 'space' ? 'space' : 'personal';
const IMPORT = process.env.EXPORT_BENCH_IMPORT === '1';
const IMPORT_MAX_BYTES = process.env.EXPORT_BENCH_IMPORT_MAX_BYTES;

const POSTS = Number(process.env.EXPORT_BENCH_POSTS ?? 1000);
const MEDIA_MB = Number(process.env.EXPORT_BENCH_MEDIA_MB ?? 64);
const FILE_MB = Number(process.env.EXPORT_BENCH_FILE_MB ?? 16);
const TIMEOUT_S = Number(process.env.EXPORT_BENCH_TIMEOUT_S ?? 1800);
const MIB = 1024 * 1024;

/** `size` random bytes, a MiB at a time (never held whole). */
function randomBody(size: number): Readable {
  let left = size;
  return new Readable({
    read() {
      if (left === 0) return void this.push(null);
      const chunk = randomBytes(Math.min(MIB, left));
      left -= chunk.length;
      this.push(chunk);
    },
  });
}

/** Downloads `path` into `file`; its size in bytes. */
function download(target: Target, path: string, file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    httpRequest({ host: '127.0.0.1', port: target.port, path, method: 'GET' }, (response) => {
      if (response.statusCode !== 200) return reject(new Error(`GET archive: ${response.statusCode}`));
      let size = 0;
      response.on('data', (chunk: Buffer) => (size += chunk.length));
      pipeline(response, createWriteStream(file)).then(() => resolve(size), reject);
    })
      .on('error', reject)
      .end();
  });
}

/**
 * The archive's entry count, its largest JSON file (an import refuses one past
 * IMPORT_MAX_FILE_BYTES, 16 MiB), and the parsed `posts.json`.
 */
async function readArchive(
  file: string,
): Promise<{ entries: number; largestJson: { name: string; bytes: number }; posts: unknown[] }> {
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    openZip(file, { lazyEntries: true }, (error, opened) => (error ? reject(error) : resolve(opened))),
  );
  let entries = 0;
  let largestJson = { name: '', bytes: 0 };
  let posts: unknown[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry: Entry) => {
      entries += 1;
      if (entry.fileName.endsWith('.json') && entry.uncompressedSize > largestJson.bytes)
        largestJson = { name: entry.fileName, bytes: entry.uncompressedSize };
      if (entry.fileName !== 'posts.json') return zip.readEntry();
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          posts = JSON.parse(Buffer.concat(chunks).toString()) as unknown[];
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  zip.close();
  return { entries, largestJson, posts };
}

async function main(): Promise<number> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL (a server this may create a database on) is required');
  if (IMPORT && KIND !== 'space') throw new Error('EXPORT_BENCH_IMPORT=1 needs EXPORT_BENCH_KIND=space');
  const redisUrl = await findRedis();
  if (!redisUrl) throw new Error('no Redis answers (REDIS_URL or redis://127.0.0.1:6379)');
  mkdirSync(logDir, { recursive: true });
  const mediaDir = `.data/bench-export-media-${Date.now()}`;
  const archiveFile = join(root, '.data', `bench-export-${Date.now()}.zip`);
  const database = await createDisposableDatabase(adminUrl, 'plat_bench_export');
  let service: Target | undefined;
  try {
    service = await startService({
      name: 'export',
      root,
      databaseUrl: database.url,
      env: mergeEnv(SERVICE_DEFAULTS, {
        REDIS_URL: redisUrl,
        LOG_LEVEL: 'warn',
        PLAT_ROLE: 'all',
        MEDIA_DIR: mediaDir,
        JOBS_REDIS_PREFIX: `plat:bench:${Date.now()}:jobs`,
        ...(IMPORT && IMPORT_MAX_BYTES ? { IMPORT_MAX_ARCHIVE_BYTES: IMPORT_MAX_BYTES } : {}),
        // The archive arrives as the Ingress hands it to a pod: within the ConfigMap's 60 s
        // (docker/k8s/configmap.yaml), not the 10 s default a slow client would get.
        ...(IMPORT ? { REQUEST_TIMEOUT_MS: '60000' } : {}),
      }),
      logFile: join(logDir, 'export-service.log'),
      readyTimeoutMs: 60_000,
    });
    const target = service;

    status(`a person, a public space and topic, ${POSTS} posts`);
    const person = PlatIdentity.create();
    await call(target, 'POST', '/relay/proof/v1/operations', null, { operations: person.log });
    await call(target, 'POST', '/users', person, { handle: 'export-person', displayName: 'Export Person' });
    const space = (await call(target, 'POST', '/spaces', person, {
      displayName: 'Export bench',
      description: 'A place to make things',
    })) as { id: string };
    await call(target, 'PUT', `/spaces/${space.id}/public-config`, person, {
      isPublic: true,
      joinMode: 'open',
    });
    const topic = (await call(target, 'POST', `/spaces/${space.id}/topics`, person, {
      name: 'Open',
      access: 'public',
    })) as { id: string };
    let next = 0;
    const seedStarted = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < POSTS) {
          const n = next++;
          await call(target, 'POST', `/v1/spaces/${space.id}/posts`, person, {
            topic: topic.id,
            title: `Export ${n}`,
            body: `Post number ${n} of the export bench, with a little text to carry.`,
          });
        }
      }),
    );
    const files = Math.max(1, Math.ceil(MEDIA_MB / FILE_MB));
    status(
      `posts in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s; ${files} files, ${MEDIA_MB} MiB`,
    );
    let uploaded = 0;
    for (let i = 0; i < files; i++) {
      const size = Math.min(FILE_MB, MEDIA_MB - i * FILE_MB) * MIB;
      const minted = (await call(target, 'POST', `/v1/spaces/${space.id}/media`, person, {
        filename: `file-${i}.bin`,
        contentType: 'application/octet-stream',
        contentLength: size,
      })) as { uploadUrl: string; uploadHeaders: Record<string, string> };
      const url = new URL(minted.uploadUrl);
      await streamTo(
        target,
        'PUT',
        url.pathname + url.search,
        { ...minted.uploadHeaders, 'Content-Length': String(size) },
        randomBody(size),
      );
      uploaded += size;
    }

    status(`${KIND} export of ${POSTS} posts and ${(uploaded / MIB).toFixed(0)} MiB`);
    const exportsPath = KIND === 'space' ? `/v1/spaces/${space.id}/exports` : '/v1/exports';
    const before = { memory: memory(target), cpu: cpuMs(target) };
    const started = performance.now();
    const requested = (await call(target, 'POST', exportsPath, person, undefined)) as { id: string };
    let shown: { state: string; url?: string } = { state: 'queued' };
    while (shown.state === 'queued' || shown.state === 'running') {
      if (performance.now() - started > TIMEOUT_S * 1000)
        throw new Error('the export did not finish in time');
      await new Promise((resolve) => setTimeout(resolve, 250));
      shown = (await call(
        target,
        'GET',
        `${exportsPath}/${requested.id}`,
        person,
        undefined,
      )) as typeof shown;
    }
    const built = performance.now();
    const after = { memory: memory(target), cpu: cpuMs(target) };
    if (shown.state !== 'ready' || !shown.url) {
      status(`export ${shown.state}`);
      return 1;
    }
    const url = new URL(shown.url);
    const size = await download(target, url.pathname + url.search, archiveFile);
    const downloaded = performance.now();
    const archive = await readArchive(archiveFile);
    const seconds = (built - started) / 1000;
    const report = [
      `${KIND} export: posts ${POSTS}, media ${(uploaded / MIB).toFixed(0)} MiB in ${files} files`,
      `build (request → ready, polled every 250 ms): ${seconds.toFixed(1)} s, ${(size / MIB / seconds).toFixed(1)} MiB/s`,
      `archive ${(size / MIB).toFixed(1)} MiB, ${archive.entries} entries; largest JSON ` +
        `${archive.largestJson.name} ${(archive.largestJson.bytes / MIB).toFixed(2)} MiB`,
      `download ${((downloaded - built) / 1000).toFixed(1)} s`,
      `service peak RSS ${before.memory.peak.toFixed(0)} MiB before, ${after.memory.peak.toFixed(0)} MiB after ` +
        `(RSS now ${after.memory.now.toFixed(0)} MiB); CPU ${((after.cpu - before.cpu) / 1000).toFixed(1)} s`,
    ];
    for (const line of report) status(line);
    const expectedEntries = files;
    if (archive.posts.length !== POSTS || archive.entries < expectedEntries) {
      status(`wrong archive: ${archive.posts.length} posts, ${archive.entries} entries`);
      return 1;
    }
    return IMPORT ? await measureImport(target, person, archiveFile, space.id, TIMEOUT_S) : 0;
  } finally {
    if (service) await stopProcess(service.child);
    await database.drop();
    rmSync(archiveFile, { force: true });
    rmSync(join(root, mediaDir), { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error);
    process.exit(1);
  },
);
