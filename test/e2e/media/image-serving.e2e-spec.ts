import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { Actor } from '../../support/actors';
import {
  animatedGif,
  bootMedia,
  decoded,
  expectInvalid,
  expectNotFound,
  expectStatus,
  jpeg,
  MediaTestApp,
  mint,
  newSpace,
  pathOf,
  person,
  png,
  storedOf,
  upload,
  uploaded,
} from './support';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const BLURHASH = /^[0-9A-Za-z#$%*+,\-.:;=?@[\]^_{|}~]{28}$/;

describe('images: probing, the public CDN route and its transforms (design.md §11)', () => {
  let t: MediaTestApp;
  let uploader: Actor;
  let space: { id: string };
  let photo: Record<string, unknown> & { id: string; url: string };
  let photoBytes: Buffer;

  const get = (url: string, accept?: string) => {
    const call = request(t.http).get(pathOf(url)).responseType('blob');
    return accept === undefined ? call : call.set('Accept', accept);
  };

  beforeAll(async () => {
    t = await bootMedia();
    uploader = await person(t);
    space = await newSpace(uploader, 'Gallery');
    photoBytes = await png(640, 480);
    photo = (await uploaded(
      t,
      uploader,
      space.id,
      { filename: 'view.png', contentType: 'image/png' },
      photoBytes,
    )) as typeof photo;
  });

  afterAll(() => t?.close());

  it('probes width, height and a BlurHash at upload', () => {
    expect(photo).toEqual({
      id: photo.id,
      filename: 'view.png',
      url: `http://api.plat.test/cdn/${photo.id}/view.png`,
      contentType: 'image/png',
      contentLength: photoBytes.length,
      width: 640,
      height: 480,
      blurHash: expect.stringMatching(BLURHASH),
    });
  });

  it('reports a JPEG as shown: its EXIF orientation applied', async () => {
    const rotated = await sharp(await jpeg(60, 40))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const media = await uploaded(
      t,
      uploader,
      space.id,
      { filename: 'turned.jpg', contentType: 'image/jpeg' },
      rotated,
    );
    expect([media.width, media.height]).toEqual([40, 60]);
  });

  it('serves the original anonymously, cacheable for a year, with an ETag', async () => {
    const response = await get(photo.url);
    expectStatus(response, 200);
    expect(response.body).toEqual(photoBytes);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['content-length']).toBe(String(photoBytes.length));
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(response.headers.vary).toBeUndefined();
    expect(response.headers['content-disposition']).toBe('inline; filename="view.png"');
    const again = await request(t.http).get(pathOf(photo.url)).set('If-None-Match', response.headers.etag);
    expectStatus(again, 304);
    expect(again.headers.etag).toBe(response.headers.etag);
    expect(again.headers['cache-control']).toBe(IMMUTABLE);
  });

  it('resizes by w and h under each of the five fits', async () => {
    const cases: [string, [number, number]][] = [
      ['w=100', [100, 75]],
      ['h=60', [80, 60]],
      ['w=100&h=100', [100, 100]],
      ['w=100&h=100&fit=cover', [100, 100]],
      ['w=100&h=100&fit=contain', [100, 100]],
      ['w=100&h=100&fit=fill', [100, 100]],
      ['w=100&h=100&fit=inside', [100, 75]],
      ['w=100&h=100&fit=outside', [133, 100]],
      // Never larger than the source (docs/decisions/0107-image-transform-bounds.md).
      ['w=4096', [640, 480]],
    ];
    for (const [query, [width, height]] of cases) {
      const response = await get(`${photo.url}?${query}`);
      expectStatus(response, 200);
      expect(response.headers['cache-control']).toBe(IMMUTABLE);
      expect(response.headers['content-type']).toBe('image/png');
      expect({ query, ...(await decoded(response.body)) }).toEqual({
        query,
        format: 'png',
        width,
        height,
        pages: 1,
      });
    }
  });

  it('negotiates AVIF or WebP by Accept with auto=format, and says Vary: Accept', async () => {
    const cases: [string | undefined, string, string][] = [
      ['image/avif,image/webp,*/*', 'avif', 'image/avif'],
      ['image/webp,*/*;q=0.8', 'webp', 'image/webp'],
      ['image/avif;q=0,image/webp', 'webp', 'image/webp'],
      ['*/*', 'png', 'image/png'],
      [undefined, 'png', 'image/png'],
    ];
    for (const [accept, format, type] of cases) {
      const response = await get(`${photo.url}?auto=format&w=50`, accept);
      expectStatus(response, 200);
      expect(response.headers.vary).toBe('Accept');
      expect(response.headers['content-type']).toBe(type);
      expect({ accept, ...(await decoded(response.body)) }).toEqual({
        accept,
        format,
        width: 50,
        height: 38,
        pages: 1,
      });
    }
    const renamed = await get(`${photo.url}?auto=format`, 'image/webp');
    expect(renamed.headers['content-disposition']).toBe('inline; filename="view.webp"');
  });

  it('computes a variant once and serves it from storage ever after', async () => {
    const first = await get(`${photo.url}?w=123`);
    expectStatus(first, 200);
    const variants = (await storedOf(t, photo.id)).filter((path) => path.includes('/variants/w123-'));
    expect(variants).toHaveLength(1);
    // Whatever storage holds is what is served: it is not rendered again.
    const marker = await png(7, 7);
    await writeFile(join(t.mediaDir, variants[0]), marker);
    const second = await get(`${photo.url}?w=123`);
    expect(second.body).toEqual(marker);
    expect(second.headers.etag).toBe(first.headers.etag);
  });

  it('keeps an animated GIF animated, resized and as WebP', async () => {
    const gif = await animatedGif(20);
    const media = await uploaded(
      t,
      uploader,
      space.id,
      { filename: 'loop.gif', contentType: 'image/gif' },
      gif,
    );
    expect([media.width, media.height]).toEqual([20, 20]);
    const original = await get(media.url as string);
    expect(await decoded(original.body)).toEqual({ format: 'gif', width: 20, height: 20, pages: 3 });
    const smaller = await get(`${media.url as string}?w=10`);
    expect(await decoded(smaller.body)).toEqual({ format: 'gif', width: 10, height: 10, pages: 3 });
    const negotiated = await get(`${media.url as string}?w=10&auto=format`, 'image/avif,image/webp');
    expect(negotiated.headers['content-type']).toBe('image/webp');
    expect(await decoded(negotiated.body)).toEqual({ format: 'webp', width: 10, height: 10, pages: 3 });
  });

  it('refuses any other value of w, h, fit, auto (400 with details), rendering nothing', async () => {
    const before = await storedOf(t, photo.id);
    const cases: [string, string][] = [
      ['w=0', 'w'],
      ['w=99999', 'w'],
      ['w=4097', 'w'],
      ['w=-5', 'w'],
      ['w=1.5', 'w'],
      ['w=1e2', 'w'],
      ['w=012', 'w'],
      ['w=abc', 'w'],
      ['w=', 'w'],
      ['w=10&w=20', 'w'],
      ['h=0', 'h'],
      ['h=5000', 'h'],
      ['fit=evil', 'fit'],
      ['fit=COVER', 'fit'],
      ['auto=webp', 'auto'],
      ['auto=', 'auto'],
      ['download=yes', 'download'],
      ['quality=80', 'quality'],
    ];
    for (const [query, path] of cases) {
      const response = await request(t.http).get(`${pathOf(photo.url)}?${query}`);
      expectInvalid(response, path);
      expect(response.headers['cache-control']).toBe('no-store');
    }
    expect(await storedOf(t, photo.id)).toEqual(before);
  });

  it('answers the constant 404 for another name, an unknown id, a pending image and a non-image', async () => {
    expectNotFound(await request(t.http).get(`/cdn/${photo.id}/other.png`));
    expectNotFound(await request(t.http).get('/cdn/media_0190f1a2b3c4d5e6f708192a3b4c5d6e/view.png'));
    expectNotFound(await request(t.http).get('/cdn/nonsense/view.png'));
    const pending = await mint(uploader, space.id, { filename: 'later.png', contentType: 'image/png' });
    expectNotFound(await request(t.http).get(pathOf(pending.media.url as string)));
    const text = await uploaded(
      t,
      uploader,
      space.id,
      { filename: 'a.txt', contentType: 'text/plain' },
      Buffer.from('hi'),
    );
    expectNotFound(await request(t.http).get(`/cdn/${text.id}/a.txt`));
  });

  it('serves the legacy publicDownloadUrl as an attachment', async () => {
    const minted = await uploader.post('/media', { filename: 'me.png', contentType: 'image/png' });
    const bytes = await png(30, 30);
    const done = await upload(t, minted.body.uploadUrl, bytes, {
      'Content-Type': 'image/png',
      'Content-Disposition': minted.body.contentDispositionHeader,
    });
    expectStatus(done, 200);
    const download = await get(done.body.publicDownloadUrl);
    expectStatus(download, 200);
    expect(download.body).toEqual(bytes);
    expect(download.headers['content-disposition']).toBe('attachment; filename="me.png"');
  });

  it('refuses an image that does not decode (400, failed, nothing kept)', async () => {
    const head = (await png()).subarray(0, 40);
    const broken = Buffer.concat([head, Buffer.alloc(200, 0x5a)]);
    const minted = await mint(uploader, space.id, { filename: 'broken.png', contentType: 'image/png' });
    const response = await upload(t, minted.uploadUrl, broken, minted.uploadHeaders);
    expectInvalid(response, 'body');
    expect(response.body.details[0].message).toMatch(/^The image could not be decoded/);
    expect(await storedOf(t, minted.media.id)).toEqual([]);
    expect((await uploader.get(`/v1/spaces/${space.id}/media/${minted.media.id}`)).body.status).toBe(
      'failed',
    );
  });
});

describe('images past MEDIA_MAX_IMAGE_PIXELS', () => {
  it('are refused at upload (400, failed, nothing kept)', async () => {
    const t = await bootMedia({ env: { MEDIA_MAX_IMAGE_PIXELS: '1000' } });
    try {
      const uploader = await person(t);
      const space = await newSpace(uploader, 'Bombs');
      const minted = await mint(uploader, space.id, { filename: 'big.png', contentType: 'image/png' });
      const response = await upload(t, minted.uploadUrl, await png(64, 48), minted.uploadHeaders);
      expectInvalid(response, 'body');
      expect(await storedOf(t, minted.media.id)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
