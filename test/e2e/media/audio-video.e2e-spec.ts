import sharp from 'sharp';
import request from 'supertest';
import { MediaProcessingService } from '../../../src/media/services/processing/media-processing.service';
import { Actor } from '../../support/actors';
import {
  bootMedia,
  expectNotFound,
  expectStatus,
  FFMPEG_PRESENT,
  MediaTestApp,
  mint,
  newSpace,
  pathOf,
  person,
  settled,
  storedOf,
  truncatedWav,
  upload,
  uuidOf,
  wav,
  withFfmpeg,
} from './support';

const SIGNED = (route: string) =>
  new RegExp(`^http://api\\.plat\\.test/${route}\\?exp=(\\d+)&sig=[A-Za-z0-9_-]{43}$`);

function expectPeaks(peaks: unknown): void {
  expect(Array.isArray(peaks)).toBe(true);
  const values = peaks as unknown[];
  expect(values.length).toBeGreaterThan(0);
  expect(values.length).toBeLessThanOrEqual(200);
  for (const value of values) {
    expect(Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 100).toBe(true);
  }
  expect(Math.max(...(values as number[]))).toBe(100);
}

(FFMPEG_PRESENT ? describe : describe.skip)('audio and video processing with ffmpeg (design.md §11)', () => {
  let t: MediaTestApp;
  let uploader: Actor;
  let space: { id: string };

  beforeAll(async () => {
    t = await bootMedia();
    uploader = await person(t);
    space = await newSpace(uploader, 'Sound and vision');
  });

  afterAll(() => t?.close());

  async function uploadAndSettle(filename: string, contentType: string, bytes: Buffer) {
    const minted = await mint(uploader, space.id, { filename, contentType });
    const answer = await upload(t, minted.uploadUrl, bytes, minted.uploadHeaders);
    expectStatus(answer, 200);
    expect(answer.body.status).toBe('pending');
    expect(answer.body.media.contentLength).toBeUndefined();
    return settled(uploader, space.id, minted.media.id);
  }

  it('probes a WAV: duration and waveform peaks, signed URL; ready after its job', async () => {
    const bytes = await withFfmpeg(
      ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-ar', '22050'],
      'wav',
    );
    const { media, status } = await uploadAndSettle('tone.wav', 'audio/wav', bytes);
    expect(status).toBe('ready');
    expect(media).toEqual({
      id: media.id,
      filename: 'tone.wav',
      url: expect.stringMatching(SIGNED(`media-files/${media.id}/tone\\.wav`)),
      contentType: 'audio/wav',
      contentLength: bytes.length,
      durationMs: 2000,
      urlExpiresAt: expect.any(String),
      waveformPeaks: expect.any(Array),
    });
    expectPeaks(media.waveformPeaks);
    expect(media.waveformPeaks).toHaveLength(200);
    const file = await request(t.http).get(pathOf(media.url)).set('Range', 'bytes=0-3').responseType('blob');
    expectStatus(file, 206);
    expect(file.body.toString('latin1')).toBe('RIFF');
  });

  it('takes an MP3’s cover art as its poster, signed like its URL', async () => {
    const bytes = await withFfmpeg(
      [
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=330:duration=3',
        '-f',
        'lavfi',
        '-i',
        'color=c=red:s=64x64:d=1',
        '-map',
        '0',
        '-map',
        '1',
        '-frames:v',
        '1',
        '-c:a',
        'libmp3lame',
        '-b:a',
        '64k',
        '-c:v',
        'mjpeg',
        '-id3v2_version',
        '3',
        '-disposition:v',
        'attached_pic',
      ],
      'mp3',
    );
    const { media, status } = await uploadAndSettle('song.mp3', 'audio/mpeg', bytes);
    expect(status).toBe('ready');
    expect(media.durationMs).toBeGreaterThanOrEqual(2900);
    expect(media.durationMs).toBeLessThanOrEqual(3200);
    expectPeaks(media.waveformPeaks);
    expect(media.posterUrl).toMatch(SIGNED(`media-posters/${media.id}\\.jpg`));
    const exp = (url: unknown) => new URL(url as string).searchParams.get('exp');
    expect(exp(media.posterUrl)).toBe(exp(media.url));
    expect(media.urlExpiresAt).toBe(new Date(Number(exp(media.url)) * 1000).toISOString());
    const poster = await request(t.http)
      .get(pathOf(media.posterUrl as string))
      .responseType('blob');
    expectStatus(poster, 200);
    expect(poster.headers['content-type']).toBe('image/jpeg');
    expect(poster.headers['cache-control']).toBe('no-store');
    const decoded = await sharp(poster.body).metadata();
    expect([decoded.format, decoded.width, decoded.height]).toEqual(['jpeg', 64, 64]);
    const url = media.posterUrl as string;
    const tampered = url.replace(/sig=(.)/, (_all, first: string) => (first === 'A' ? 'sig=B' : 'sig=A'));
    expectStatus(await request(t.http).get(pathOf(tampered)), 403);
    // The signature of this poster on another media's poster path.
    const otherId = media.id.replace(/.$/, (last) => (last === '0' ? '1' : '0'));
    expectStatus(await request(t.http).get(pathOf(url).replace(media.id, otherId)), 403);
  });

  it('probes an MP4: size, duration, a frame as poster with its BlurHash, the file as playbackUrl', async () => {
    const bytes = await withFfmpeg(
      [
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=160x120:rate=10:duration=2',
        '-pix_fmt',
        'yuv420p',
        '-c:v',
        'libx264',
      ],
      'mp4',
    );
    const { media, status } = await uploadAndSettle('clip.mp4', 'video/mp4', bytes);
    expect(status).toBe('ready');
    expect(media).toEqual({
      id: media.id,
      filename: 'clip.mp4',
      url: expect.stringMatching(SIGNED(`media-files/${media.id}/clip\\.mp4`)),
      contentType: 'video/mp4',
      contentLength: bytes.length,
      width: 160,
      height: 120,
      blurHash: expect.stringMatching(/^[0-9A-Za-z#$%*+,\-.:;=?@[\]^_{|}~]{28}$/),
      durationMs: 2000,
      posterUrl: expect.stringMatching(SIGNED(`media-posters/${media.id}\\.jpg`)),
      playbackUrl: media.url,
      urlExpiresAt: expect.any(String),
    });
    const played = await request(t.http)
      .get(pathOf(media.playbackUrl as string))
      .set('Range', 'bytes=4-7')
      .responseType('blob');
    expectStatus(played, 206);
    expect(played.body.toString('latin1')).toBe('ftyp');
    const poster = await request(t.http)
      .get(pathOf(media.posterUrl as string))
      .responseType('blob');
    const frame = await sharp(poster.body).metadata();
    expect([frame.width, frame.height]).toEqual([160, 120]);
  });

  it('fails a media whose bytes the tools refuse, keeping nothing of it', async () => {
    const bytes = truncatedWav();
    const minted = await mint(uploader, space.id, { filename: 'broken.wav', contentType: 'audio/wav' });
    expectStatus(await upload(t, minted.uploadUrl, bytes, minted.uploadHeaders), 200);
    const { media, status } = await settled(uploader, space.id, minted.media.id);
    expect(status).toBe('failed');
    expect(media.durationMs).toBeUndefined();
    expect(await storedOf(t, minted.media.id)).toEqual([]);
  });
});

describe('audio without ffmpeg (design.md §11: ready, lacking only what the tools find)', () => {
  it('becomes ready with its length and a signed URL, no duration or peaks', async () => {
    const t = await bootMedia({
      env: { MEDIA_FFPROBE_PATH: '/nonexistent/ffprobe', MEDIA_FFMPEG_PATH: '/nonexistent/ffmpeg' },
    });
    try {
      const uploader = await person(t);
      const space = await newSpace(uploader, 'Quiet');
      const bytes = wav(1);
      const minted = await mint(uploader, space.id, { filename: 'tone.wav', contentType: 'audio/wav' });
      expectStatus(await upload(t, minted.uploadUrl, bytes, minted.uploadHeaders), 200);
      const { media, status } = await settled(uploader, space.id, minted.media.id);
      expect(status).toBe('ready');
      expect(media).toEqual({
        id: minted.media.id,
        filename: 'tone.wav',
        url: expect.stringMatching(SIGNED(`media-files/${minted.media.id}/tone\\.wav`)),
        contentType: 'audio/wav',
        contentLength: bytes.length,
        urlExpiresAt: expect.any(String),
      });
      const file = await request(t.http).get(pathOf(media.url)).responseType('blob');
      expectStatus(file, 200);
      expect(file.body).toEqual(bytes);
    } finally {
      await t.close();
    }
  });
});

describe('the sweep of pending media (design.md §11)', () => {
  it('deletes media never uploaded within the URL lifetime, fails media whose processing never ends', async () => {
    const t = await bootMedia();
    try {
      const uploader = await person(t);
      const space = await newSpace(uploader, 'Sweep');
      const never = await mint(uploader, space.id, { filename: 'never.png', contentType: 'image/png' });
      const stuck = await mint(uploader, space.id, { filename: 'stuck.wav', contentType: 'audio/wav' });
      // Bytes stored, its job lost (as with a crash of the in-process queue).
      await t.dataSource.query(
        `UPDATE media SET uploaded_at = now(), storage_key = id || '/original' WHERE id = $1`,
        [uuidOf(stuck.media.id)],
      );
      const fresh = await mint(uploader, space.id, { filename: 'fresh.png', contentType: 'image/png' });
      const processing = t.app.get(MediaProcessingService);
      expect(await processing.sweep()).toEqual({ deleted: 0, failed: 0 });
      t.clock.offsetMs = 3601 * 1000;
      await mint(uploader, space.id, { filename: 'late.png', contentType: 'image/png' });
      expect(await processing.sweep()).toEqual({ deleted: 2, failed: 1 });
      const states = await t.dataSource.query('SELECT filename, state FROM media ORDER BY filename');
      expect(states).toEqual([
        { filename: 'late.png', state: 'pending' },
        { filename: 'stuck.wav', state: 'failed' },
      ]);
      expectNotFound(await uploader.get(`/v1/spaces/${space.id}/media/${never.media.id}`));
      expectNotFound(await uploader.get(`/v1/spaces/${space.id}/media/${fresh.media.id}`));
    } finally {
      t.clock.offsetMs = 0;
      await t.close();
    }
  });
});
