import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Response } from 'supertest';
import { parseEntityId } from '../../../src/common/ids/entity-id';
import { MediaProcessingService } from '../../../src/media/services/processing/media-processing.service';
import { MediaLookupService } from '../../../src/media/services/media-lookup.service';
import { Actor } from '../../support/actors';
import {
  bootMedia,
  expectInvalid,
  expectStatus,
  FFMPEG_PRESENT,
  MediaTestApp,
  MiB,
  mint,
  newSpace,
  person,
  png,
  settled,
  storedFiles,
  storedOf,
  truncatedWav,
  upload,
  uploadChunked,
  wav,
} from './support';

const DAY_MS = 24 * 3600 * 1000;

/** design.md §5's 429 for the quota: the envelope exactly, Retry-After agreeing with retryAfterMs. */
function expectQuotaRefusal(
  response: Response,
  quota: number,
  retryAfterMs: { atLeast: number; atMost: number },
) {
  expectStatus(response, 429);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.body).toEqual({
    code: 'E_RATE_LIMITED',
    message: `Upload quota reached: at most ${quota} bytes in 24 hours`,
    scope: 'upload-quota',
    retryAfterMs: expect.any(Number),
  });
  expect(response.body.retryAfterMs).toBeGreaterThanOrEqual(retryAfterMs.atLeast);
  expect(response.body.retryAfterMs).toBeLessThanOrEqual(retryAfterMs.atMost);
  expect(response.headers['retry-after']).toBe(String(Math.ceil(response.body.retryAfterMs / 1000)));
}

async function mediaRowsOf(t: MediaTestApp, did: string): Promise<number> {
  const [{ n }] = await t.dataSource.query('SELECT count(*)::int AS n FROM media WHERE uploader_did = $1', [
    did,
  ]);
  return n;
}

/**
 * The attack: "any identity can create a space and mint 30 × 500 MB per minute".
 * Each identity now has MEDIA_UPLOAD_QUOTA_BYTES_PER_DAY over any 24 hours, counted at the mint
 * (docs/decisions/0114-media-upload-quota.md).
 */
describe('the per-identity upload quota (MEDIA_UPLOAD_QUOTA_BYTES_PER_DAY)', () => {
  describe('with the default quota (2 GiB)', () => {
    let t: MediaTestApp;

    beforeAll(async () => {
      t = await bootMedia();
    });

    afterAll(() => t?.close());

    it('attack: minting 500 MB video uploads without end: the fifth in a day is 429, nothing stored', async () => {
      const attacker = await person(t);
      const space = await newSpace(attacker, 'Mine');
      // No contentLength: each counts the most a video may be (500 MiB) until its bytes arrive.
      for (let index = 0; index < 4; index++) {
        await mint(attacker, space.id, { filename: `v${index}.mp4`, contentType: 'video/mp4' });
      }
      const before = Date.now();
      const refused = await attacker.post(`/v1/spaces/${space.id}/media`, {
        filename: 'v4.mp4',
        contentType: 'video/mp4',
      });
      expectQuotaRefusal(refused, 2 * 1024 * MiB, {
        atLeast: DAY_MS - (Date.now() - before) - 60_000,
        atMost: DAY_MS,
      });
      expect(await mediaRowsOf(t, attacker.did)).toBe(4);
      // Another space is no way around it: the quota is the identity's.
      const second = await newSpace(attacker, 'Also mine');
      const again = await attacker.post(`/v1/spaces/${second.id}/media`, {
        filename: 'v5.mp4',
        contentType: 'video/mp4',
        contentLength: 200 * MiB,
      });
      expectStatus(again, 429);
      expect(await mediaRowsOf(t, attacker.did)).toBe(4);
      // Another identity has its own.
      const neighbour = await person(t);
      const theirs = await newSpace(neighbour, 'Theirs');
      await mint(neighbour, theirs.id, { filename: 'v.mp4', contentType: 'video/mp4' });
    });
  });

  describe('with a quota of 1 MiB', () => {
    const QUOTA = MiB;
    let t: MediaTestApp;
    let uploader: Actor;
    let space: { id: string };

    // One app for the block: the quota is the identity's, so a fresh uploader per test isolates.
    beforeAll(async () => {
      t = await bootMedia({ env: { MEDIA_UPLOAD_QUOTA_BYTES_PER_DAY: String(QUOTA) } });
    });

    beforeEach(async () => {
      uploader = await person(t);
      space = await newSpace(uploader, 'Quota');
    });

    afterEach(() => {
      t.clock.offsetMs = 0;
    });

    afterAll(() => t?.close());

    const mintOf = (body: Record<string, unknown>) => uploader.post(`/v1/spaces/${space.id}/media`, body);

    it('counts declared sizes at the mint: what fits is 201, one byte more is 429 with the envelope', async () => {
      await mint(uploader, space.id, {
        filename: 'a.bin',
        contentType: 'application/octet-stream',
        contentLength: 600_000,
      });
      const files = await storedFiles(t);
      const before = Date.now();
      const refused = await mintOf({
        filename: 'b.bin',
        contentType: 'application/octet-stream',
        contentLength: QUOTA - 600_000 + 1,
      });
      expectQuotaRefusal(refused, QUOTA, {
        atLeast: DAY_MS - (Date.now() - before) - 60_000,
        atMost: DAY_MS,
      });
      expect(await mediaRowsOf(t, uploader.did)).toBe(1);
      expect(await storedFiles(t)).toEqual(files);
      await mint(uploader, space.id, {
        filename: 'b.bin',
        contentType: 'application/octet-stream',
        contentLength: QUOTA - 600_000,
      });
    });

    it('a declared contentLength past the whole quota is a 400 at contentLength', async () => {
      expectInvalid(
        await mintOf({
          filename: 'big.bin',
          contentType: 'application/octet-stream',
          contentLength: QUOTA + 1,
        }),
        'contentLength',
      );
    });

    it('an undeclared upload counts the most it may bring until its bytes arrive, then what they are', async () => {
      const open = await mint(uploader, space.id, { filename: 'open.png', contentType: 'image/png' });
      // The image limit is 10 MiB, the quota 1 MiB: the pending upload holds the whole quota.
      expectStatus(await mintOf({ filename: 'x.png', contentType: 'image/png', contentLength: 1 }), 429);
      const bytes = await png(8, 8);
      expectStatus(await upload(t, open.uploadUrl, bytes, open.uploadHeaders), 200);
      await mint(uploader, space.id, {
        filename: 'rest.bin',
        contentType: 'application/octet-stream',
        contentLength: QUOTA - bytes.length,
      });
      expectStatus(
        await mintOf({ filename: 'y.bin', contentType: 'application/octet-stream', contentLength: 1 }),
        429,
      );
    });

    it('an upload never brings more than the quota (413 past it), and refused bytes still count', async () => {
      const open = await mint(uploader, space.id, {
        filename: 'f.bin',
        contentType: 'application/octet-stream',
      });
      // Chunked, so the bytes stream in until the limit (a Content-Length past it reads none).
      const chunks = Array.from({ length: 5 }, () => Buffer.alloc(QUOTA / 4));
      expectStatus(await uploadChunked(t, open.uploadUrl, chunks, open.uploadHeaders), 413);
      expect(await storedOf(t, open.media.id)).toEqual([]);
      expectStatus(
        await mintOf({ filename: 'g.bin', contentType: 'application/octet-stream', contentLength: 1 }),
        429,
      );
    });

    it('legacy POST /media counts against the same quota', async () => {
      // A legacy image counts the image limit capped by the quota: the whole 1 MiB here.
      expectStatus(await uploader.post('/media', { filename: 'me.png', contentType: 'image/png' }), 201);
      const refused = await uploader.post('/media', { filename: 'me2.png', contentType: 'image/png' });
      expectStatus(refused, 429);
      expect(refused.body.scope).toBe('upload-quota');
      expectStatus(
        await mintOf({ filename: 'z.bin', contentType: 'application/octet-stream', contentLength: 1 }),
        429,
      );
    });

    it('the window rolls: 24 hours after the mints that used it, the quota is free again', async () => {
      await mint(uploader, space.id, {
        filename: 'a.bin',
        contentType: 'application/octet-stream',
        contentLength: QUOTA,
      });
      const refused = await mintOf({
        filename: 'b.bin',
        contentType: 'application/octet-stream',
        contentLength: 1,
      });
      expectStatus(refused, 429);
      t.clock.offsetMs = refused.body.retryAfterMs as number;
      await mint(uploader, space.id, {
        filename: 'b.bin',
        contentType: 'application/octet-stream',
        contentLength: 1,
      });
    });

    it('concurrent mints cannot share the last bytes: exactly the ones that fit are 201', async () => {
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          mintOf({
            filename: `c${index}.bin`,
            contentType: 'application/octet-stream',
            contentLength: QUOTA / 4,
          }),
        ),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 201, 201, 429, 429, 429, 429]);
      expect(await mediaRowsOf(t, uploader.did)).toBe(4);
    });
  });
});

/**
 * The media module keeps the bytes each space holds (`media_space_usage`), in the transaction of
 * each write that stores or drops an upload's bytes; `MediaLookupService` exports it
 * (docs/decisions/0114-media-upload-quota.md).
 */
describe('the per-space storage figure (MediaLookupService.storedBytesOfSpace)', () => {
  let t: MediaTestApp;
  let toolDir: string;

  beforeAll(async () => {
    toolDir = await mkdtemp(join(tmpdir(), 'plat-figure-tools-'));
    // ffprobe that records its pid and hangs on a file named *hang*, else the real one.
    const ffprobe = join(toolDir, 'ffprobe');
    await writeFile(
      ffprobe,
      `#!/bin/sh
case "$*" in *hang*) echo $$ >> "${toolDir}/pids"; exec sleep 600;; esac
exec ffprobe "$@"
`,
    );
    await chmod(ffprobe, 0o755);
    t = await bootMedia({ env: { MEDIA_FFPROBE_PATH: ffprobe } });
  });

  afterAll(async () => {
    const pids = await readFile(join(toolDir, 'pids'), 'utf8').catch(() => '');
    for (const pid of pids.split('\n').filter(Boolean)) process.kill(Number(pid), 'SIGKILL');
    t.clock.offsetMs = 0;
    await t?.close();
    await rm(toolDir, { recursive: true, force: true });
  });

  const storedBytes = (space: { id: string }) =>
    t.app.get(MediaLookupService).storedBytesOfSpace(parseEntityId('space', space.id)!);

  it('goes up on each upload, not on a mint or a refused upload; legacy uploads count in no space', async () => {
    const uploader = await person(t);
    const space = await newSpace(uploader, 'Figures');
    const other = await newSpace(uploader, 'Elsewhere');
    expect(await storedBytes(space)).toBe(0);
    const first = await mint(uploader, space.id, { filename: 'a.txt', contentType: 'text/plain' });
    expect(await storedBytes(space)).toBe(0);
    expectStatus(await upload(t, first.uploadUrl, Buffer.from('hello'), first.uploadHeaders), 200);
    expect(await storedBytes(space)).toBe(5);
    const image = await png(16, 16);
    const second = await mint(uploader, space.id, { filename: 'b.png', contentType: 'image/png' });
    expectStatus(await upload(t, second.uploadUrl, image, second.uploadHeaders), 200);
    expect(await storedBytes(space)).toBe(5 + image.length);
    const refused = await mint(uploader, space.id, { filename: 'c.png', contentType: 'image/png' });
    expectStatus(
      await upload(t, refused.uploadUrl, Buffer.from('not a png at all'), refused.uploadHeaders),
      400,
    );
    const legacy = await uploader.post('/media', { filename: 'me.png', contentType: 'image/png' });
    expectStatus(
      await upload(t, legacy.body.uploadUrl, image, {
        'Content-Type': 'image/png',
        'Content-Disposition': legacy.body.contentDispositionHeader,
      }),
      200,
    );
    expect(await storedBytes(space)).toBe(5 + image.length);
    expect(await storedBytes(other)).toBe(0);
  });

  (FFMPEG_PRESENT ? it : it.skip)(
    'goes down when processing fails the media and drops its bytes',
    async () => {
      const uploader = await person(t);
      const space = await newSpace(uploader, 'Dropped');
      const kept = await mint(uploader, space.id, { filename: 'kept.wav', contentType: 'audio/wav' });
      expectStatus(await upload(t, kept.uploadUrl, wav(1), kept.uploadHeaders), 200);
      expect((await settled(uploader, space.id, kept.media.id)).status).toBe('ready');
      const keptBytes = wav(1).length;
      expect(await storedBytes(space)).toBe(keptBytes);
      // Stored (counted), then refused by ffprobe.
      const broken = truncatedWav();
      const minted = await mint(uploader, space.id, { filename: 'broken.wav', contentType: 'audio/wav' });
      expectStatus(await upload(t, minted.uploadUrl, broken, minted.uploadHeaders), 200);
      expect((await settled(uploader, space.id, minted.media.id)).status).toBe('failed');
      expect(await storedBytes(space)).toBe(keptBytes);
    },
  );

  it('goes down when the sweep fails a media whose processing never finished (its bytes go too)', async () => {
    const uploader = await person(t);
    const space = await newSpace(uploader, 'Stuck');
    const minted = await mint(uploader, space.id, { filename: 'hang.wav', contentType: 'audio/wav' });
    expectStatus(await upload(t, minted.uploadUrl, wav(1), minted.uploadHeaders), 200);
    expect(await storedBytes(space)).toBe(wav(1).length);
    expect(await storedOf(t, minted.media.id)).toHaveLength(1);
    t.clock.offsetMs = 3601 * 1000;
    expect(await t.app.get(MediaProcessingService).sweep()).toEqual({ deleted: 0, failed: 1 });
    t.clock.offsetMs = 0;
    expect(await storedBytes(space)).toBe(0);
    expect(await storedOf(t, minted.media.id)).toEqual([]);
  });
});
