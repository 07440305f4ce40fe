import { Actor } from '../../support/actors';
import {
  bootMedia,
  expectInvalid,
  expectNotFound,
  expectStatus,
  jpeg,
  MEDIA_ID,
  MediaTestApp,
  MiB,
  mint,
  newSpace,
  person,
  png,
  storedFiles,
  storedOf,
  upload,
  uploadChunked,
} from './support';

describe('legacy media: POST /media, the upload, GET /media/{id} (api-spec.md "Legacy namespaces")', () => {
  let t: MediaTestApp;
  let uploader: Actor;
  let other: Actor;

  beforeAll(async () => {
    t = await bootMedia();
    [uploader, other] = await Promise.all([person(t), person(t)]);
  });

  afterAll(() => t?.close());

  async function legacyMint(filename: string, contentType: string) {
    const response = await uploader.post('/media', { filename, contentType });
    expectStatus(response, 201);
    return response.body as {
      uploadUrl: string;
      contentDispositionHeader: string;
      media: { id: string; filename: string; contentType: string };
    };
  }

  it('mints an image upload: uploadUrl, contentDispositionHeader and the media summary', async () => {
    const response = await uploader.post('/media', { filename: 'avatar.png', contentType: 'image/png' });
    expectStatus(response, 201);
    expect(response.body).toEqual({
      uploadUrl: expect.stringMatching(
        /^http:\/\/api\.plat\.test\/uploads\/media_[0-9a-f]{32}\?exp=\d+&sig=/,
      ),
      contentDispositionHeader: 'inline; filename="avatar.png"',
      media: { id: expect.stringMatching(MEDIA_ID), filename: 'avatar.png', contentType: 'image/png' },
    });
    const info = await uploader.get(`/media/${response.body.media.id}`);
    expectStatus(info, 200);
    expect(info.body).toEqual({
      id: response.body.media.id,
      filename: 'avatar.png',
      contentType: 'image/png',
      size: null,
      url: `http://api.plat.test/cdn/${response.body.media.id}/avatar.png`,
      blurHash: null,
      width: null,
      height: null,
      publicDownloadUrl: null,
      canonicalUri: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it('takes the bytes with Content-Type and Content-Disposition as minted, then shows the media info', async () => {
    const minted = await legacyMint('héllo "world".jpg', 'image/jpeg');
    expect(minted.contentDispositionHeader).toBe(
      `inline; filename="h_llo _world_.jpg"; filename*=UTF-8''h%C3%A9llo%20%22world%22.jpg`,
    );
    const bytes = await jpeg();
    const withoutDisposition = await upload(t, minted.uploadUrl, bytes, { 'Content-Type': 'image/jpeg' });
    expectInvalid(withoutDisposition, 'Content-Disposition');
    const wrong = await upload(t, minted.uploadUrl, bytes, {
      'Content-Type': 'image/jpeg',
      'Content-Disposition': 'inline; filename="other.jpg"',
    });
    expectInvalid(wrong, 'Content-Disposition');
    const response = await upload(t, minted.uploadUrl, bytes, {
      'Content-Type': 'image/jpeg',
      'Content-Disposition': minted.contentDispositionHeader,
    });
    expectStatus(response, 200);
    const url = `http://api.plat.test/cdn/${minted.media.id}/h%C3%A9llo%20%22world%22.jpg`;
    const expected = {
      id: minted.media.id,
      filename: 'héllo "world".jpg',
      contentType: 'image/jpeg',
      size: bytes.length,
      url,
      blurHash: expect.stringMatching(/^[0-9A-Za-z#$%*+,\-.:;=?@[\]^_{|}~]{28}$/),
      width: 64,
      height: 48,
      publicDownloadUrl: `${url}?download=1`,
      canonicalUri: url,
      createdAt: expect.any(String),
    };
    expect(response.body).toEqual(expected);
    const info = await uploader.get(`/media/${minted.media.id}`);
    expectStatus(info, 200);
    expect(info.body).toEqual(expected);
  });

  it('accepts only PNG, JPEG, GIF and WebP', async () => {
    for (const contentType of ['image/png', 'image/jpeg', 'image/gif', 'image/webp']) {
      expectStatus(await uploader.post('/media', { filename: 'x', contentType }), 201);
    }
    for (const contentType of ['audio/mpeg', 'video/mp4', 'application/pdf', 'image/svg+xml', 'text/plain']) {
      const refused = await uploader.post('/media', { filename: 'x', contentType });
      expectInvalid(refused, 'contentType');
      expect(refused.body.details).toEqual([
        {
          path: 'contentType',
          message: 'contentType must be image/png, image/jpeg, image/gif or image/webp',
        },
      ]);
    }
    expectInvalid(
      await uploader.post('/media', { filename: '../x.png', contentType: 'image/png' }),
      'filename',
    );
    expectInvalid(await uploader.post('/media', { contentType: 'image/png' }), 'filename');
  });

  it('refuses a PNG declared as image/jpeg, and more than 10 MiB', async () => {
    const mismatch = await legacyMint('p.jpg', 'image/jpeg');
    const response = await upload(t, mismatch.uploadUrl, await png(), {
      'Content-Type': 'image/jpeg',
      'Content-Disposition': mismatch.contentDispositionHeader,
    });
    expectInvalid(response, 'body');
    expect(await storedOf(t, mismatch.media.id)).toEqual([]);
    const big = await legacyMint('big.png', 'image/png');
    const head = await png();
    const tooLarge = await upload(
      t,
      big.uploadUrl,
      Buffer.concat([head, Buffer.alloc(10 * 1024 * 1024 + 1 - head.length)]),
      {
        'Content-Type': 'image/png',
        'Content-Disposition': big.contentDispositionHeader,
      },
    );
    expectStatus(tooLarge, 413);
    expect(await storedOf(t, big.media.id)).toEqual([]);
  });

  it('refuses more than 10 MiB sent chunked (no Content-Length) mid-stream: 413, nothing kept', async () => {
    const big = await legacyMint('stream.png', 'image/png');
    const head = await png();
    const body = Buffer.concat([head, Buffer.alloc(10 * MiB + 1 - head.length, 7)]);
    const chunks = Array.from({ length: Math.ceil(body.length / MiB) }, (_, index) =>
      body.subarray(index * MiB, (index + 1) * MiB),
    );
    const headers = { 'Content-Type': 'image/png', 'Content-Disposition': big.contentDispositionHeader };
    // Written chunk by chunk: no Content-Length, so the limit can only be found while streaming.
    const response = await uploadChunked(t, big.uploadUrl, chunks, headers);
    expectStatus(response, 413);
    expect(response.body).toEqual({
      code: 'E_PAYLOAD_TOO_LARGE',
      message: 'The upload is larger than 10485760 bytes',
    });
    expect(await storedOf(t, big.media.id)).toEqual([]);
    expect(await storedFiles(t)).not.toContainEqual(expect.stringMatching(/^\.incoming\//));
    // The media is not ready (no size, no public URLs) and takes no further upload.
    const info = await uploader.get(`/media/${big.media.id}`);
    expect(info.body).toMatchObject({ size: null, publicDownloadUrl: null, canonicalUri: null });
    expectStatus(await upload(t, big.uploadUrl, await png(), headers), 409);
    expect(await storedOf(t, big.media.id)).toEqual([]);
  });

  it('shows a media only to its uploader; a v1 media is not a legacy one', async () => {
    const minted = await legacyMint('mine.png', 'image/png');
    expectNotFound(await other.get(`/media/${minted.media.id}`));
    expectNotFound(await uploader.get('/media/media_0190f1a2b3c4d5e6f708192a3b4c5d6e'));
    expectNotFound(await uploader.get('/media/nonsense'));
    const space = await newSpace(uploader, 'V1');
    const v1 = await mint(uploader, space.id, { filename: 'v1.png', contentType: 'image/png' });
    expectNotFound(await uploader.get(`/media/${v1.media.id}`));
  });

  it('takes a bare identity proof only', async () => {
    expectStatus(await t.anonymous.post('/media', { filename: 'a.png', contentType: 'image/png' }), 401);
    const app = await person(t);
    const credential = uploader.grant(app, ['write:posts', 'read:posts']);
    expectStatus(
      await app.post('/media', { filename: 'a.png', contentType: 'image/png' }, { credential }),
      403,
    );
  });
});
