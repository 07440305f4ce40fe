import { Readable } from 'node:stream';
import request from 'supertest';
import { MediaStorage } from '../../../src/media/services/storage/media-storage';
import { S3Storage } from '../../../src/media/services/storage/s3-storage';
import { MediaProcessingService } from '../../../src/media/services/processing/media-processing.service';
import { S3TestServer, startS3Server } from '../../support/s3-server';
import { Actor } from '../../support/actors';
import {
  bootMedia,
  decoded,
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
  upload,
  uploadChunked,
  uuidOf,
  wav,
} from './support';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('media in an S3-compatible bucket (MEDIA_S3_BUCKET, design.md §11)', () => {
  let s3: S3TestServer;
  let t: MediaTestApp;
  let uploader: Actor;
  let space: { id: string };
  let storage: MediaStorage;

  beforeAll(async () => {
    s3 = await startS3Server();
    t = await bootMedia({ env: { ...s3.env, MEDIA_S3_PREFIX: 'media/', MEDIA_VARIANTS_PER_MEDIA: '2' } });
    uploader = await person(t);
    space = await newSpace(uploader, 'Bucket');
    storage = t.app.get(MediaStorage);
  });

  const objectsUnder = async (prefix: string) =>
    (await s3.objectKeys()).filter((key) => key.startsWith(prefix));

  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('uses the bucket, not MEDIA_DIR', () => {
    expect(storage).toBeInstanceOf(S3Storage);
  });

  it('streams an upload into the bucket', async () => {
    const bytes = await png(120, 80);
    const minted = await mint(uploader, space.id, { filename: 'cloud.png', contentType: 'image/png' });
    const response = await upload(t, minted.uploadUrl, bytes, minted.uploadHeaders);
    expectStatus(response, 200);
    expect(response.body.status).toBe('ready');
    const [row] = await t.dataSource.query('SELECT storage_key FROM media WHERE id = $1', [
      uuidOf(minted.media.id),
    ]);
    expect(await bytesOf(await storage.get(row.storage_key))).toEqual(bytes);
    expect(await objectsUnder(`media/${uuidOf(minted.media.id)}/`)).toEqual([`media/${row.storage_key}`]);
    expect(await storedFiles(t)).toEqual([]);
  });

  it('keeps nothing in the bucket of an upload refused mid-stream past the limit', async () => {
    const minted = await mint(uploader, space.id, { filename: 'huge.png', contentType: 'image/png' });
    const head = await png();
    const body = Buffer.concat([head, Buffer.alloc(10 * MiB + 1 - head.length, 1)]);
    const chunks = Array.from({ length: 11 }, (_, index) => body.subarray(index * MiB, (index + 1) * MiB));
    const response = await uploadChunked(t, minted.uploadUrl, chunks, minted.uploadHeaders);
    expectStatus(response, 413);
    const [row] = await t.dataSource.query('SELECT state, storage_key FROM media WHERE id = $1', [
      uuidOf(minted.media.id),
    ]);
    expect(row).toEqual({ state: 'failed', storage_key: null });
    expect(await s3.openUploads()).toEqual([]);
    expect(await objectsUnder(`media/${uuidOf(minted.media.id)}/`)).toEqual([]);
  });

  (FFMPEG_PRESENT ? it : it.skip)(
    'processes audio from the bucket through a temporary copy (scratch within MEDIA_SCRATCH_MAX_BYTES: 0111-media-processing-containment)',
    async () => {
      const minted = await mint(uploader, space.id, { filename: 'tone.wav', contentType: 'audio/wav' });
      expectStatus(await upload(t, minted.uploadUrl, wav(1), minted.uploadHeaders), 200);
      const { media, status } = await settled(uploader, space.id, minted.media.id);
      expect(status).toBe('ready');
      expect(media.durationMs).toBe(1000);
      expect(t.app.get(MediaProcessingService).scratchInUse).toBe(0);
    },
  );

  it('keeps at most MEDIA_VARIANTS_PER_MEDIA variants of an image in the bucket, serving the rest (0108-image-variant-bound)', async () => {
    const bytes = await png(60, 40);
    const minted = await mint(uploader, space.id, { filename: 'sizes.png', contentType: 'image/png' });
    expectStatus(await upload(t, minted.uploadUrl, bytes, minted.uploadHeaders), 200);
    const path = new URL(minted.media.url as string).pathname;
    for (const width of [10, 20, 30, 40]) {
      const response = await request(t.http).get(`${path}?w=${width}`).responseType('blob');
      expectStatus(response, 200);
      expect((await decoded(response.body)).width).toBe(width);
    }
    const variants = (await objectsUnder(`media/${uuidOf(minted.media.id)}/`)).filter((key) =>
      key.includes('/variants/'),
    );
    expect(variants).toHaveLength(2);
  });
});
