import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import sharp from 'sharp';
import request, { Response } from 'supertest';
import { AppConfig, loadConfig } from '../../../src/config/app-config';
import type { DisposableDatabase } from '../../../src/infrastructure/database/disposable-database';
import { Actor, ServiceTarget } from '../../support/actors';
import { createTestDatabase } from '../../support/database';
import { closedPort } from '../../support/network';
import { S3TestServer, startS3Server } from '../../support/s3-server';
import {
  assertBuildIsCurrent,
  migrate,
  sample,
  ServiceProcess,
  startService,
  stopAll,
} from './service-processes';
import { eventually } from '../../support/eventually';

const REDIS_URL = process.env.REDIS_URL;
const FFPROBE = spawnSync('sh', ['-c', 'command -v ffprobe']).stdout?.toString().trim() ?? '';
const FFMPEG_PRESENT = FFPROBE !== '' && spawnSync('ffmpeg', ['-version']).status === 0;
const RUNNABLE = Boolean(REDIS_URL) && FFMPEG_PRESENT;
/** Generous: four Node processes boot at once on a loaded 2-core machine. */
const READY_WITHIN_MS = 90_000;
const PROCESSED_WITHIN_MS = 45_000;
const COMPLETED_PROBES = 'plat_jobs_total{kind="media.probe",outcome="completed"}';

/**
 * The documented topology started as an operator would, without Docker
 * (docs/decisions/0126-topology-as-processes.md). Two `api`
 * and two `worker` processes of the built service (`node dist/src/main.js`, NODE_ENV=production,
 * every required setting) on one fresh PostgreSQL database migrated by the migrate step, one Redis
 * (the queue, rate-limit budgets and caches, under prefixes of this test) and an S3-compatible
 * server. Identities are published through api A's relay over HTTP; an image and an audio file are
 * uploaded through api A; the audio's processing job is taken by a worker, which is SIGKILLed while
 * the job runs; the other worker takes the job over once the dead one's lock lapses and finishes it;
 * both media are then read, bytes included, through api B.
 *
 * "While the job runs" is made certain, not hoped for: both workers' MEDIA_FFPROBE_PATH is a
 * stand-in that runs the real ffprobe, except while a hold file exists, when it writes down which
 * worker started it and waits (a slow probe). The test holds it for the audio, kills the worker
 * that took it, then lifts the hold, so the survivor's probe is real.
 */
(RUNNABLE ? describe : describe.skip)(
  `two api and two worker processes on PostgreSQL, Redis and S3 (0126-topology-as-processes)${
    RUNNABLE ? '' : ' [skipped: needs REDIS_URL and ffmpeg]'
  }`,
  () => {
    const running: ServiceProcess[] = [];
    let s3: S3TestServer | undefined;
    let database: DisposableDatabase | undefined;
    let dir: string;
    let config: AppConfig;
    let apiA: ServiceProcess;
    let apiB: ServiceProcess;
    let workers: ServiceProcess[];
    const holdFile = () => join(dir, 'hold');
    const takenFile = () => join(dir, 'taken');

    beforeAll(async () => {
      assertBuildIsCurrent();
      dir = await mkdtemp(join(tmpdir(), 'plat-topology-'));
      s3 = await startS3Server();
      database = await createTestDatabase();
      const ffprobe = join(dir, 'ffprobe');
      await writeFile(
        ffprobe,
        [
          '#!/bin/sh',
          `if [ -e "${holdFile()}" ]; then`,
          // $PPID: the worker process that spawned the tool (no shell in between).
          `  echo "$PPID $$" > "${takenFile()}.tmp" && mv "${takenFile()}.tmp" "${takenFile()}"`,
          `  while [ -e "${holdFile()}" ]; do sleep 0.05; done`,
          'fi',
          `exec "${FFPROBE}" "$@"`,
          '',
        ].join('\n'),
      );
      await chmod(ffprobe, 0o755);

      const common: Record<string, string> = {
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        PUBLIC_BASE_URL: 'http://api.plat.test',
        DATABASE_URL: database.url,
        REDIS_URL: REDIS_URL!,
        CURSOR_SECRET: 'topology-cursor-secret-topology-cursor',
        MEDIA_URL_SECRET: 'topology-media-url-secret-topology-media',
        ERASED_BAN_SECRET: 'topology-erased-ban-secret-topology-bans',
        ORIGIN_KEY: Buffer.alloc(32, 7).toString('base64url'),
        ...s3.env,
        MIGRATE_ON_BOOT: 'false',
        JOBS_REDIS_PREFIX: `plat:test:${randomUUID()}:jobs`,
        RATE_LIMIT_REDIS_PREFIX: `plat:test:${randomUUID()}:`,
        // A dead worker's claim lapses within seconds (30 s by default), so the takeover fits the test.
        JOBS_LOCK_MS: '4000',
        JOBS_STALLED_CHECK_MS: '1000',
        MEDIA_FFPROBE_PATH: ffprobe,
      };
      config = loadConfig(common);
      // Migrations first, as the migrate Job does: the processes refuse a database left behind.
      await migrate({ DATABASE_URL: database.url });

      const processEnv = async (role: 'api' | 'worker', name: string) => {
        const env: Record<string, string> = { ...common, PLAT_ROLE: role };
        env.PORT = String(await closedPort());
        env.METRICS_PORT = String(await closedPort());
        if (role === 'worker') {
          env.MEDIA_SCRATCH_DIR = join(dir, `scratch-${name}`);
          await mkdir(env.MEDIA_SCRATCH_DIR);
        }
        return env;
      };
      const names = ['api-a', 'api-b', 'worker-1', 'worker-2'];
      const envs = await Promise.all(
        names.map((name) => processEnv(name.startsWith('api') ? 'api' : 'worker', name)),
      );
      const started = await Promise.allSettled(
        names.map((name, index) => startService(name, envs[index], READY_WITHIN_MS)),
      );
      for (const outcome of started) if (outcome.status === 'fulfilled') running.push(outcome.value);
      const failed = started.find((outcome) => outcome.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
      [apiA, apiB, ...workers] = running;
    }, 150_000);

    afterAll(async () => {
      await stopAll(running);
      if (config)
        await dropKeys(config.REDIS_URL!, [config.JOBS_REDIS_PREFIX, config.RATE_LIMIT_REDIS_PREFIX]);
      if (dir) {
        // A probe still held (the test failed before lifting the hold) ends with its directory.
        const taken = await readFile(takenFile(), 'utf8').catch(() => '');
        const [, toolPid] = taken.trim().split(' ').map(Number);
        if (toolPid) killQuietly(toolPid);
        await rm(dir, { recursive: true, force: true });
      }
      await s3?.close();
      await database?.drop();
    }, 30_000);

    it('uploads through api A, processes on a worker that is killed mid-job and on the other, and reads through api B', async () => {
      const onA: ServiceTarget = { http: apiA.base, config };
      const onB: ServiceTarget = { http: apiB.base, config };
      // Published through api A's relay; the same signed log through B's is idempotent.
      const owner = await Actor.create(onA);
      const ownerOnB = await Actor.create(onB, { identity: owner.identity });
      const space = await owner.post('/spaces', { displayName: 'Rehearsal', description: 'Two tiers' });
      expectStatus(space, 201);
      const spaceId = space.body.id as string;

      // An image: probed and ready on the api that receives it.
      const image = await sharp({
        create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 80, b: 40 } },
      })
        .png()
        .toBuffer();
      const imageUpload = await uploadThrough(apiA, owner, spaceId, 'photo.png', 'image/png', image);
      expect(imageUpload.status).toBe('ready');

      // An audio file: pending until a worker's job has probed it.
      const audio = await ffmpegWav(2);
      await writeFile(holdFile(), '');
      const audioUpload = await uploadThrough(apiA, owner, spaceId, 'tone.wav', 'audio/wav', audio);
      expect(audioUpload.status).toBe('pending');

      // A worker took the job and is mid-run (its probe holds): that worker dies.
      const taken = await eventually(
        () => readFile(takenFile(), 'utf8').catch(() => ''),
        (text) => text.trim() !== '',
        PROCESSED_WITHIN_MS,
      );
      const [workerPid, toolPid] = taken.trim().split(' ').map(Number);
      const victim = workers.find((worker) => worker.pid === workerPid);
      if (!victim) throw new Error(`no worker started the probe (${taken.trim()}):\n${logsOf(workers)}`);
      const survivor = workers.find((worker) => worker !== victim)!;
      await victim.stop('SIGKILL');
      killQuietly(toolPid);
      await unlink(holdFile());
      expect(victim.exited()).toBe(true);

      // The survivor finds the lapsed claim, runs the job again and completes it.
      const metrics = await eventually(
        () => fetch(survivor.metricsUrl).then((response) => response.text()),
        (text) => sample(text, COMPLETED_PROBES) >= 1,
        PROCESSED_WITHIN_MS,
      );
      if (sample(metrics, COMPLETED_PROBES) !== 1) {
        throw new Error(`${survivor.name} did not complete the job:\n${metrics}\n${logsOf(workers)}`);
      }

      // Both, read through api B: the audio's facts from the survivor's probe, and every byte from S3.
      const audioOnB = await ownerOnB.get(`/v1/spaces/${spaceId}/media/${audioUpload.id}`);
      expectStatus(audioOnB, 200);
      expect(audioOnB.body.status).toBe('ready');
      expect(audioOnB.body.media).toMatchObject({
        id: audioUpload.id,
        contentType: 'audio/wav',
        contentLength: audio.length,
        durationMs: 2000,
      });
      expect(audioOnB.body.media.waveformPeaks).toHaveLength(200);
      const audioBytes = await request(apiB.base).get(pathOf(audioOnB.body.media.url)).responseType('blob');
      expectStatus(audioBytes, 200);
      expect(Buffer.compare(audioBytes.body as Buffer, audio)).toBe(0);

      const imageOnB = await ownerOnB.get(`/v1/spaces/${spaceId}/media/${imageUpload.id}`);
      expectStatus(imageOnB, 200);
      expect(imageOnB.body.status).toBe('ready');
      expect(imageOnB.body.media).toMatchObject({ width: 64, height: 48 });
      const imageBytes = await request(apiB.base).get(pathOf(imageOnB.body.media.url)).responseType('blob');
      expectStatus(imageBytes, 200);
      const decoded = await sharp(imageBytes.body as Buffer).metadata();
      expect([decoded.width, decoded.height]).toEqual([64, 48]);

      // Everything but the dead worker is still up.
      for (const service of running.filter((s) => s !== victim)) expect(service.exited()).toBe(false);
    }, 120_000);

    /** Mints through the actor (signed for the shared public host), PUTs the bytes to `api`. */
    async function uploadThrough(
      api: ServiceProcess,
      uploader: Actor,
      spaceId: string,
      filename: string,
      contentType: string,
      bytes: Buffer,
    ): Promise<{ id: string; status: string }> {
      const minted = await uploader.post(`/v1/spaces/${spaceId}/media`, { filename, contentType });
      expectStatus(minted, 201);
      const put = await request(api.base)
        .put(pathOf(minted.body.uploadUrl as string))
        .set(minted.body.uploadHeaders as Record<string, string>)
        .send(bytes);
      expectStatus(put, 200);
      return { id: minted.body.media.id as string, status: put.body.status as string };
    }

    /** A WAV of a sine tone, written to a file (piped, ffmpeg cannot fill in the header's sizes). */
    async function ffmpegWav(seconds: number): Promise<Buffer> {
      const output = join(dir, 'tone.wav');
      const run = spawnSync('ffmpeg', [
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        `sine=frequency=440:duration=${seconds}`,
        '-ar',
        '22050',
        output,
      ]);
      if (run.status !== 0) throw new Error(`ffmpeg failed: ${run.stderr.toString()}`);
      return readFile(output);
    }
  },
);

function expectStatus(response: Response, status: number): void {
  if (response.status !== status) {
    throw new Error(`expected ${status}, got ${response.status}: ${JSON.stringify(response.body)}`);
  }
}

/** The path and query of a URL the service handed out under its public origin. */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

function logsOf(services: ServiceProcess[]): string {
  return services.map((service) => `--- ${service.name} (pid ${service.pid})\n${service.log()}`).join('\n');
}

/** The Redis keys under the prefixes of this test (the queue's schedulers outlive the processes). */
async function dropKeys(url: string, prefixes: string[]): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  try {
    await redis.connect();
    for (const prefix of prefixes) {
      for await (const batch of redis.scanStream({ match: `${prefix}*`, count: 500 })) {
        if ((batch as string[]).length > 0) await redis.del(...(batch as string[]));
      }
    }
  } finally {
    redis.disconnect();
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
