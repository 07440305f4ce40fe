import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RedisRelay } from '../rate-limit/support';
import { Actor } from '../../support/actors';
import {
  bootMedia,
  expectStatus,
  FFMPEG_PRESENT,
  MediaTestApp,
  mint,
  newSpace,
  person,
  upload,
  uuidOf,
  wav,
} from './support';
import { eventually } from '../../support/eventually';

const REDIS_URL = process.env.REDIS_URL;

/**
 * A processing job taken by a replica that dies mid-run is not lost. Replica A
 * (the real service) takes the job and is stuck in its ffprobe (a stand-in that never answers);
 * then A dies as far as Redis can tell: every connection it has is cut, so it stops renewing its
 * claim on the job. Replica B, booted afterwards on the same database, store and queue, finds the
 * lapsed claim in its stalled-job check and runs the job to the end: the media becomes ready
 * (docs/decisions/0080-a-job-whose-replica-dies.md).
 */
(REDIS_URL ? describe : describe.skip)(
  `a media job taken by a replica that dies (BullMQ)${REDIS_URL ? '' : ' [skipped: needs REDIS_URL, a real Redis]'}`,
  () => {
    const queue = {
      JOBS_REDIS_PREFIX: `plat:test:${randomUUID()}:jobs`,
      JOBS_LOCK_MS: '1000',
      JOBS_STALLED_CHECK_MS: '300',
    };
    let relay: RedisRelay;
    let toolDir: string;
    let replicaA: MediaTestApp;
    let replicaB: MediaTestApp | undefined;
    let standInPid: number | undefined;

    beforeAll(async () => {
      relay = new RedisRelay(new URL(REDIS_URL!));
      await relay.start();
      toolDir = await mkdtemp(join(tmpdir(), 'plat-stuck-ffprobe-'));
      // Records that it was started (its pid), then never answers, like a replica frozen mid-job.
      const ffprobe = join(toolDir, 'ffprobe');
      await writeFile(ffprobe, `#!/bin/sh\necho $$ > "${toolDir}/taken"\nexec sleep 600\n`);
      await chmod(ffprobe, 0o755);
      replicaA = await bootMedia({
        env: { REDIS_URL: relay.url, MEDIA_FFPROBE_PATH: ffprobe, ...queue },
      });
    });

    afterAll(async () => {
      // A's stuck job ends now (its tool fails on a media already ready: nothing changes).
      if (standInPid) process.kill(standInPid, 'SIGKILL');
      await replicaB?.close();
      await replicaA?.close();
      await relay?.stop();
      await rm(toolDir, { recursive: true, force: true });
    });

    it('is handed to another replica, which makes the media ready', async () => {
      const uploader = await person(replicaA);
      const space = await newSpace(uploader, 'Crash');
      const minted = await mint(uploader, space.id, { filename: 'tone.wav', contentType: 'audio/wav' });
      const answer = await upload(replicaA, minted.uploadUrl, wav(1), minted.uploadHeaders);
      expectStatus(answer, 200);
      expect(answer.body.status).toBe('pending');

      const taken = await eventually(
        () => readFile(join(toolDir, 'taken'), 'utf8').catch(() => ''),
        (text) => text.trim() !== '',
        10_000,
      );
      standInPid = Number(taken.trim());
      expect(standInPid).toBeGreaterThan(0);

      await relay.stop();
      replicaB = await bootMedia({ replicaOf: replicaA, env: queue });

      // The uploader asks B (their proofs name the service, which both replicas are).
      const uploaderOnB = await Actor.create(replicaB, {
        identity: uploader.identity,
        clock: () => replicaB!.clock.now(),
      });
      const status = async () => {
        const response = await uploaderOnB.get(`/v1/spaces/${space.id}/media/${minted.media.id}`);
        expectStatus(response, 200);
        return (response.body as { status: string }).status;
      };
      const settledOnB = await eventually(status, (status) => status !== 'pending', 20_000);
      expect(settledOnB).toBe('ready');
      const [row] = (await replicaB.dataSource.query('SELECT state, duration_ms FROM media WHERE id = $1', [
        uuidOf(minted.media.id),
      ])) as { state: string; duration_ms: number | null }[];
      // B's real ffprobe measured it (A's never answered).
      if (FFMPEG_PRESENT) expect(row.duration_ms).toBe(1000);
    });
  },
);
