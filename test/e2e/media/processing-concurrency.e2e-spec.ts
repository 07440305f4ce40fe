import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  bootMedia,
  expectStatus,
  FFMPEG_PRESENT,
  MediaTestApp,
  mint,
  newSpace,
  person,
  settled,
  upload,
  wav,
} from './support';

const REDIS_URL = process.env.REDIS_URL;
const JOBS = 6;
const CAP = 2;

/** The most runs of the stand-in ffprobe that overlapped, from its log of starts and ends. */
async function mostAtOnce(log: string): Promise<number> {
  let running = 0;
  let most = 0;
  for (const line of (await readFile(log, 'utf8')).trim().split('\n')) {
    running += line === 'start' ? 1 : -1;
    most = Math.max(most, running);
  }
  return most;
}

/**
 * Media processing a few at a time (docs/decisions/0111-media-processing-containment.md). The
 * attack: one identity uploads many audio files at once; every upload queued a
 * probe job and every job started its ffprobe and ffmpeg at once (the in-process queue had no
 * bound; BullMQ's worker gave them every one of JOBS_CONCURRENCY's slots). Now a replica runs at
 * most MEDIA_PROCESSING_CONCURRENCY of them at a time, on either queue.
 */
describe.each([
  ['the in-process queue', false],
  ['BullMQ', true],
])('media processing jobs on %s run at most MEDIA_PROCESSING_CONCURRENCY at once', (_queue, redis) => {
  const runnable = FFMPEG_PRESENT && (!redis || REDIS_URL !== undefined);
  let t: MediaTestApp;
  let toolDir: string;

  beforeAll(async () => {
    if (!runnable) return;
    toolDir = await mkdtemp(join(tmpdir(), 'plat-counting-ffprobe-'));
    // The real ffprobe, bracketed by a start and an end line, held a while so runs could overlap.
    const ffprobe = join(toolDir, 'ffprobe');
    await writeFile(
      ffprobe,
      `#!/bin/sh\necho start >> "${toolDir}/log"\nsleep 0.4\nffprobe "$@"\nstatus=$?\necho end >> "${toolDir}/log"\nexit $status\n`,
    );
    await chmod(ffprobe, 0o755);
    t = await bootMedia({
      env: {
        MEDIA_FFPROBE_PATH: ffprobe,
        MEDIA_PROCESSING_CONCURRENCY: String(CAP),
        ...(redis
          ? {
              REDIS_URL: REDIS_URL!,
              JOBS_REDIS_PREFIX: `plat:test:${randomUUID()}:jobs`,
              JOBS_CONCURRENCY: '8',
            }
          : { REDIS_URL: '' }),
      },
    });
  });

  afterAll(async () => {
    await t?.close();
    if (toolDir) await rm(toolDir, { recursive: true, force: true });
  });

  (runnable ? it : it.skip)(
    `${JOBS} uploads at once: never more than ${CAP} probes at a time, all ready`,
    async () => {
      const uploader = await person(t);
      const space = await newSpace(uploader, 'Many at once');
      const minted = await Promise.all(
        Array.from({ length: JOBS }, (_, index) =>
          mint(uploader, space.id, { filename: `tone-${index}.wav`, contentType: 'audio/wav' }),
        ),
      );
      await Promise.all(
        minted.map(async (each) =>
          expectStatus(await upload(t, each.uploadUrl, wav(1), each.uploadHeaders), 200),
        ),
      );
      for (const each of minted) {
        expect((await settled(uploader, space.id, each.media.id, 60_000)).status).toBe('ready');
      }
      expect(await mostAtOnce(join(toolDir, 'log'))).toBe(CAP);
    },
    90_000,
  );
});
