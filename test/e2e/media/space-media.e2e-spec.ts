import { Actor } from '../../support/actors';
import {
  admit,
  bootMedia,
  expectInvalid,
  expectNotFound,
  expectStatus,
  jpeg,
  makePublic,
  MEDIA_ID,
  MediaTestApp,
  mint,
  newSpace,
  pathOf,
  person,
  png,
  readStored,
  storedOf,
  upload,
  uuidOf,
} from './support';

const CDN_URL = (id: string, name: string) => `http://api.plat.test/cdn/${id}/${name}`;
const UPLOAD_URL =
  /^http:\/\/api\.plat\.test\/uploads\/(media_[0-9a-f]{32})\?exp=(\d+)&sig=[A-Za-z0-9_-]{43}$/;
const FILE_URL =
  /^http:\/\/api\.plat\.test\/media-files\/media_[0-9a-f]{32}\/[^?]+\?exp=\d+&sig=[A-Za-z0-9_-]{43}$/;

describe('v1 media: mint, upload, status (design.md §11)', () => {
  let t: MediaTestApp;
  let owner: Actor;
  let member: Actor;
  let outsider: Actor;
  let space: { id: string; did: string };
  let otherSpace: { id: string; did: string };

  beforeAll(async () => {
    t = await bootMedia();
    [owner, member, outsider] = await Promise.all([person(t), person(t), person(t)]);
    space = await newSpace(owner, 'Studio');
    await makePublic(owner, space.id);
    await admit(owner, space.id, member);
    otherSpace = await newSpace(owner, 'Elsewhere');
    await admit(owner, otherSpace.id, member);
  });

  afterAll(() => t?.close());

  it('mints an image upload: the media object, a signed upload URL and the headers to send', async () => {
    const before = Math.floor(t.clock.now().getTime() / 1000);
    const response = await member.post(`/v1/spaces/${space.id}/media`, {
      filename: 'sunrise.png',
      contentType: 'Image/PNG',
      alt: 'The sun over the hills',
    });
    expectStatus(response, 201);
    const id = response.body.media.id as string;
    expect(id).toMatch(MEDIA_ID);
    expect(response.body).toEqual({
      media: {
        id,
        filename: 'sunrise.png',
        url: CDN_URL(id, 'sunrise.png'),
        contentType: 'image/png',
        alt: 'The sun over the hills',
      },
      uploadUrl: expect.stringMatching(UPLOAD_URL),
      uploadHeaders: { 'Content-Type': 'image/png' },
    });
    const [, urlId, exp] = UPLOAD_URL.exec(response.body.uploadUrl)!;
    expect(urlId).toBe(id);
    expect(Number(exp) - before).toBeGreaterThanOrEqual(3600);
    expect(Number(exp) - before).toBeLessThanOrEqual(3601);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('uploads a PNG: streamed to storage, ready with its length; the status says so', async () => {
    const bytes = await png();
    const minted = await mint(member, space.id, { filename: 'photo.png', contentType: 'image/png' });
    const pending = await member.get(`/v1/spaces/${space.id}/media/${minted.media.id}`);
    expectStatus(pending, 200);
    expect(pending.body).toEqual({ media: minted.media, status: 'pending' });

    const answer = await upload(t, minted.uploadUrl, bytes, minted.uploadHeaders);
    expectStatus(answer, 200);
    const media = { ...minted.media, contentLength: bytes.length };
    expect(answer.body).toEqual({ media: expect.objectContaining(media), status: 'ready' });
    expect(answer.headers['cache-control']).toBe('no-store');

    const ready = await member.get(`/v1/spaces/${space.id}/media/${minted.media.id}`);
    expectStatus(ready, 200);
    expect(ready.body).toEqual(answer.body);
    const stored = await storedOf(t, minted.media.id);
    expect(stored).toHaveLength(1);
    expect(await readStored(t, stored[0])).toEqual(bytes);
  });

  it('refuses a second upload to a ready media (409) and keeps the first bytes', async () => {
    const bytes = await png(10, 10);
    const minted = await mint(member, space.id, { filename: 'once.png', contentType: 'image/png' });
    expectStatus(await upload(t, minted.uploadUrl, bytes, minted.uploadHeaders), 200);
    const again = await upload(t, minted.uploadUrl, await png(20, 20), minted.uploadHeaders);
    expectStatus(again, 409);
    expect(again.body).toEqual({ code: 'E_CONFLICT', message: 'This media already has its bytes' });
    const stored = await storedOf(t, minted.media.id);
    expect(stored).toHaveLength(1);
    expect(await readStored(t, stored[0])).toEqual(bytes);
  });

  it('answers a tampered, foreign, unsigned or expired upload URL 403, storing nothing', async () => {
    const bytes = await png();
    const first = await mint(member, space.id, { filename: 'a.png', contentType: 'image/png' });
    const second = await mint(member, space.id, { filename: 'b.png', contentType: 'image/png' });
    const url = new URL(first.uploadUrl);
    const sig = url.searchParams.get('sig')!;
    const exp = url.searchParams.get('exp')!;
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    const attempts = [
      `${url.origin}${url.pathname}?exp=${exp}&sig=${flipped}`,
      `${url.origin}${url.pathname}?exp=${Number(exp) + 1}&sig=${sig}`,
      `${url.origin}${url.pathname}?exp=${exp}`,
      `${url.origin}${url.pathname}`,
      `${url.origin}${url.pathname}?exp=${exp}&sig=${sig}x`,
      // the first media's signature on the second one's path
      `${url.origin}/uploads/${second.media.id}?exp=${exp}&sig=${sig}`,
    ];
    for (const attempt of attempts) {
      const response = await upload(t, attempt, bytes, { 'Content-Type': 'image/png' });
      expectStatus(response, 403);
      expect(response.body.code).toBe('E_FORBIDDEN');
    }
    t.clock.offsetMs = 3601 * 1000;
    try {
      const expired = await upload(t, first.uploadUrl, bytes, first.uploadHeaders);
      expectStatus(expired, 403);
      expect(expired.body).toEqual({ code: 'E_FORBIDDEN', message: 'Expired URL signature' });
    } finally {
      t.clock.offsetMs = 0;
    }
    expect(await storedOf(t, first.media.id)).toEqual([]);
    expect(await storedOf(t, second.media.id)).toEqual([]);
    const status = await member.get(`/v1/spaces/${space.id}/media/${first.media.id}`);
    expect(status.body.status).toBe('pending');
  });

  it('refuses a PNG declared as image/jpeg (400, media failed, nothing stored)', async () => {
    const minted = await mint(member, space.id, { filename: 'not-a.jpg', contentType: 'image/jpeg' });
    const response = await upload(t, minted.uploadUrl, await png(), minted.uploadHeaders);
    expectInvalid(response, 'body');
    expect(response.body.details).toEqual([
      { path: 'body', message: 'The bytes are image/png, not image/jpeg' },
    ]);
    const status = await member.get(`/v1/spaces/${space.id}/media/${minted.media.id}`);
    expect(status.body).toEqual({ media: minted.media, status: 'failed' });
    expect(await storedOf(t, minted.media.id)).toEqual([]);
    // A failed media takes no further upload.
    expectStatus(await upload(t, minted.uploadUrl, await jpeg(), minted.uploadHeaders), 409);
  });

  it('refuses a PNG named .mp3 and declared audio/mpeg', async () => {
    const minted = await mint(member, space.id, { filename: 'song.mp3', contentType: 'audio/mpeg' });
    expect(minted.media).toEqual({
      id: minted.media.id,
      filename: 'song.mp3',
      url: expect.stringMatching(FILE_URL),
      contentType: 'audio/mpeg',
      urlExpiresAt: expect.any(String),
    });
    const response = await upload(t, minted.uploadUrl, await png(), minted.uploadHeaders);
    expectInvalid(response, 'body');
    expect(response.body.details[0].message).toBe('The bytes are image/png, not audio/mpeg');
    expect(await storedOf(t, minted.media.id)).toEqual([]);
  });

  it('refuses bytes sent with another Content-Type than declared (400, still pending)', async () => {
    const minted = await mint(member, space.id, { filename: 'c.png', contentType: 'image/png' });
    for (const headers of [{ 'Content-Type': 'image/jpeg' }, {}] as Record<string, string>[]) {
      const response = await upload(t, minted.uploadUrl, await png(), headers);
      expectInvalid(response, 'Content-Type');
      expect(response.body.details).toEqual([
        { path: 'Content-Type', message: 'Content-Type must be image/png, as declared' },
      ]);
    }
    expect((await member.get(`/v1/spaces/${space.id}/media/${minted.media.id}`)).body.status).toBe('pending');
    expectStatus(await upload(t, minted.uploadUrl, await png(), minted.uploadHeaders), 200);
  });

  it('holds an upload to its declared contentLength: longer is 413, shorter is 400, both fail it', async () => {
    const bytes = await png();
    const longer = await mint(member, space.id, {
      filename: 'l.png',
      contentType: 'image/png',
      contentLength: bytes.length - 1,
    });
    const tooLong = await upload(t, longer.uploadUrl, bytes, longer.uploadHeaders);
    expectStatus(tooLong, 413);
    expect(tooLong.body).toEqual({
      code: 'E_PAYLOAD_TOO_LARGE',
      message: `The upload is larger than ${bytes.length - 1} bytes`,
    });
    const shorter = await mint(member, space.id, {
      filename: 's.png',
      contentType: 'image/png',
      contentLength: bytes.length + 1,
    });
    const tooShort = await upload(t, shorter.uploadUrl, bytes, shorter.uploadHeaders);
    expectInvalid(tooShort, 'body');
    expect(tooShort.body.details[0].message).toBe(
      `The upload has ${bytes.length} bytes; ${bytes.length + 1} were declared`,
    );
    for (const minted of [longer, shorter]) {
      expect((await member.get(`/v1/spaces/${space.id}/media/${minted.media.id}`)).body.status).toBe(
        'failed',
      );
      expect(await storedOf(t, minted.media.id)).toEqual([]);
    }
    const exact = await mint(member, space.id, {
      filename: 'e.png',
      contentType: 'image/png',
      contentLength: bytes.length,
    });
    const answer = await upload(t, exact.uploadUrl, bytes, exact.uploadHeaders);
    expectStatus(answer, 200);
    expect(answer.body.media.contentLength).toBe(bytes.length);
  });

  it('answers an upload to an unknown media 404 (the signature verifies, the media does not exist)', async () => {
    const minted = await mint(member, space.id, { filename: 'gone.png', contentType: 'image/png' });
    await t.dataSource.query('DELETE FROM media WHERE id = $1', [uuidOf(minted.media.id)]);
    expectNotFound(await upload(t, minted.uploadUrl, await png(), minted.uploadHeaders));
  });

  it('refuses bad mint input with details, storing nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ contentType: 'image/png' }, 'filename'],
      [{ filename: '', contentType: 'image/png' }, 'filename'],
      [{ filename: 'a/b.png', contentType: 'image/png' }, 'filename'],
      [{ filename: 'a\\b.png', contentType: 'image/png' }, 'filename'],
      [{ filename: '..', contentType: 'image/png' }, 'filename'],
      [{ filename: 'bell\u0007.png', contentType: 'image/png' }, 'filename'],
      [{ filename: 'line\nbreak.png', contentType: 'image/png' }, 'filename'],
      [{ filename: 'evil\u202egnp.exe', contentType: 'image/png' }, 'filename'],
      [{ filename: `${'x'.repeat(252)}.png`, contentType: 'image/png' }, 'filename'],
      [{ filename: 'a.png' }, 'contentType'],
      [{ filename: 'a.bmp', contentType: 'image/bmp' }, 'contentType'],
      [{ filename: 'a.png', contentType: 42 }, 'contentType'],
      [{ filename: 'a.png', contentType: 'image/png', contentLength: -1 }, 'contentLength'],
      [{ filename: 'a.png', contentType: 'image/png', contentLength: 1.5 }, 'contentLength'],
      [{ filename: 'a.png', contentType: 'image/png', contentLength: '10' }, 'contentLength'],
      [{ filename: 'a.png', contentType: 'image/png', contentLength: 1e30 }, 'contentLength'],
      [{ filename: 'a.png', contentType: 'image/png', contentLength: 10 * 1024 * 1024 + 1 }, 'contentLength'],
      [{ filename: 'a.png', contentType: 'image/png', alt: 'x'.repeat(1001) }, 'alt'],
      [{ filename: 'a.png', contentType: 'image/png', extra: true }, 'extra'],
    ];
    const before = await t.dataSource.query('SELECT count(*)::int AS n FROM media');
    for (const [body, path] of cases) {
      expectInvalid(await member.post(`/v1/spaces/${space.id}/media`, body), path);
    }
    const huge = await member.post(`/v1/spaces/${space.id}/media`, {
      filename: 'a.png',
      contentType: 'image/png',
      contentLength: 10 * 1024 * 1024 + 1,
    });
    expect(huge.body.details).toEqual([
      { path: 'contentLength', message: 'contentLength must be at most 10485760 bytes for image uploads' },
    ]);
    expect(await t.dataSource.query('SELECT count(*)::int AS n FROM media')).toEqual(before);
  });

  it('shows a media only to its uploader, in its own space: every other look is the constant 404', async () => {
    const minted = await mint(member, space.id, { filename: 'mine.png', contentType: 'image/png' });
    expectNotFound(await owner.get(`/v1/spaces/${space.id}/media/${minted.media.id}`));
    expectNotFound(await member.get(`/v1/spaces/${otherSpace.id}/media/${minted.media.id}`));
    expectNotFound(await member.get(`/v1/spaces/${space.id}/media/media_0190f1a2b3c4d5e6f708192a3b4c5d6e`));
    expectNotFound(await member.get(`/v1/spaces/${space.id}/media/not-an-id`));
    expectNotFound(
      await member.get(`/v1/spaces/space_0190f1a2b3c4d5e6f708192a3b4c5d6e/media/${minted.media.id}`),
    );
  });

  it('answers a non-member the constant 404 for a media of a public space, not the 403 of a write (0113-media-status-and-no-store)', async () => {
    // design.md §11: "only the uploader sees it (404 otherwise)"; a stranger used to get 403.
    const minted = await mint(member, space.id, { filename: 'seen.png', contentType: 'image/png' });
    expectNotFound(await outsider.get(`/v1/spaces/${space.id}/media/${minted.media.id}`));
    expectNotFound(await outsider.get(`/v1/spaces/${space.id}/media/media_0190f1a2b3c4d5e6f708192a3b4c5d6e`));
    expectNotFound(await outsider.get(`/v1/spaces/${otherSpace.id}/media/${minted.media.id}`));
    expectStatus(await member.get(`/v1/spaces/${space.id}/media/${minted.media.id}`), 200);
  });

  it('lets only members mint: 403 on a public space, the 404 on a private one', async () => {
    const body = { filename: 'x.png', contentType: 'image/png' };
    const refused = await outsider.post(`/v1/spaces/${space.id}/media`, body);
    expectStatus(refused, 403);
    expectNotFound(await outsider.post(`/v1/spaces/${otherSpace.id}/media`, body));
    expectStatus(await member.post(`/v1/spaces/${otherSpace.id}/media`, body), 201);
  });

  it('takes a credential with write:posts or write:comments (and read:posts); other grants are refused', async () => {
    const app = await person(t);
    const body = { filename: 'c.png', contentType: 'image/png' };
    for (const scopes of [
      ['write:posts', 'read:posts'],
      ['write:comments', 'read:posts'],
    ]) {
      const credential = member.grant(app, scopes);
      const minted = await app.post(`/v1/spaces/${space.id}/media`, body, { credential });
      expectStatus(minted, 201);
      const status = await app.get(`/v1/spaces/${space.id}/media/${minted.body.media.id}`, { credential });
      expectStatus(status, 200);
      expect(status.body.status).toBe('pending');
    }
    const readOnly = member.grant(app, ['read:posts']);
    expectStatus(await app.post(`/v1/spaces/${space.id}/media`, body, { credential: readOnly }), 403);
    const elsewhere = member.grant(app, ['write:posts', 'read:posts'], [otherSpace.did]);
    expectStatus(await app.post(`/v1/spaces/${space.id}/media`, body, { credential: elsewhere }), 403);
  });

  it('needs a jti on the mint (a write) and refuses its replay; the status is a read without one', async () => {
    const body = { filename: 'j.png', contentType: 'image/png' };
    expectStatus(await member.post(`/v1/spaces/${space.id}/media`, body, { jti: false }), 401);
    const jti = 'media-mint-jti-0001';
    expectStatus(await member.post(`/v1/spaces/${space.id}/media`, body, { jti }), 201);
    expectStatus(await member.post(`/v1/spaces/${space.id}/media`, body, { jti }), 409);
    const minted = await mint(member, space.id, body);
    expectStatus(await member.get(`/v1/spaces/${space.id}/media/${minted.media.id}`, { jti: false }), 200);
  });

  it('charges mints to the create budget', async () => {
    // POST /spaces is charged to the same budget: one for the space, two mints.
    const limited = await bootMedia({ env: { RATE_LIMIT_GRANT_POSTS: '3' } });
    try {
      const uploader = await person(limited);
      const own = await newSpace(uploader, 'Budget');
      const body = { filename: 'r.png', contentType: 'image/png' };
      expectStatus(await uploader.post(`/v1/spaces/${own.id}/media`, body), 201);
      const second = await uploader.post(`/v1/spaces/${own.id}/media`, body);
      expectStatus(second, 201);
      expect(second.headers['ratelimit-remaining']).toBe('0');
      const third = await uploader.post(`/v1/spaces/${own.id}/media`, body);
      expectStatus(third, 429);
      expect(third.body).toEqual(expect.objectContaining({ code: 'E_RATE_LIMITED', scope: 'create' }));
    } finally {
      await limited.close();
    }
  });

  it('keeps the upload URL path byte-exact: any other encoding of the id is not the signed target', async () => {
    const minted = await mint(member, space.id, { filename: 'p.png', contentType: 'image/png' });
    const path = pathOf(minted.uploadUrl).replace('/uploads/', '/uploads/x');
    expectStatus(await upload(t, `http://api.plat.test${path}`, await png(), minted.uploadHeaders), 403);
  });
});
