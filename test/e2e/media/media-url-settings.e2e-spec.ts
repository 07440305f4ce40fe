import request from 'supertest';
import { AppConfig } from '../../../src/config/app-config';
import {
  MediaUrlSignerService,
  SignedQuery,
  signedQueryString,
} from '../../../src/media/services/media-url-signer.service';
import { Actor } from '../../support/actors';
import { newTopic } from '../posts/support';
import {
  bootMedia,
  expectStatus,
  makePublic,
  MEDIA_URL_SECRET,
  MediaTestApp,
  mint,
  newSpace,
  pathOf,
  person,
  storedOf,
  uploaded,
} from './support';

const SIGNED =
  /^http:\/\/api\.plat\.test\/media-files\/(media_[0-9a-f]{32})\/([^?]+)\?exp=(\d+)&sig=([A-Za-z0-9_-]{43})$/;

const OTHER_SECRET = 'another-media-url-secret-another-media-url-secret';

type MediaObject = Record<string, unknown> & { id: string; url: string };

/**
 * MEDIA_URL_TTL and MEDIA_URL_SECRET (design.md §11 "URLs"): signed file URLs live MEDIA_URL_TTL
 * seconds, reported by `urlExpiresAt`; only MEDIA_URL_SECRET's signatures verify.
 */
describe('signed media URLs under MEDIA_URL_TTL=120 and MEDIA_URL_SECRET', () => {
  let t: MediaTestApp;
  let uploader: Actor;
  let space: string;
  let file: MediaObject;
  const text = Buffer.from('short-lived words\n');

  beforeAll(async () => {
    t = await bootMedia({ env: { MEDIA_URL_TTL: '120' } });
    uploader = await person(t);
    space = (await newSpace(uploader, 'Short')).id;
    file = (await uploaded(
      t,
      uploader,
      space,
      { filename: 'short.txt', contentType: 'text/plain' },
      text,
    )) as MediaObject;
  });

  afterAll(() => t?.close());

  const now = () => Math.floor(t.clock.now().getTime() / 1000);

  /** The URL's `exp`, after checking that `urlExpiresAt` says the same instant. */
  const expiryOf = (media: Record<string, unknown>): number => {
    const match = SIGNED.exec(media.url as string);
    expect(match).not.toBeNull();
    const exp = Number(match![3]);
    expect(media.urlExpiresAt).toBe(new Date(exp * 1000).toISOString());
    return exp;
  };

  /** Seconds from now until `exp`: MEDIA_URL_TTL for a URL signed just now. */
  const expectLifetime = (exp: number, seconds: number) => {
    expect(exp - now()).toBeGreaterThanOrEqual(seconds - 5);
    expect(exp - now()).toBeLessThanOrEqual(seconds);
  };

  const signerWith = (secret: string) =>
    new MediaUrlSignerService(Object.assign(new AppConfig(), { MEDIA_URL_SECRET: secret }), t.clock);

  it('signs file URLs for 120 s: the upload answer, the status route, the mint and a post’s attachments', async () => {
    expectLifetime(expiryOf(file), 120);
    const status = await uploader.get(`/v1/spaces/${space}/media/${file.id}`);
    expectStatus(status, 200);
    expectLifetime(expiryOf(status.body.media), 120);
    const minted = await mint(uploader, space, { filename: 'later.txt', contentType: 'text/plain' });
    expectLifetime(expiryOf(minted.media), 120);
    // The upload URL keeps its own lifetime (MEDIA_UPLOAD_TTL, 3600 s by default).
    expectLifetime(Number(new URL(minted.uploadUrl).searchParams.get('exp')), 3600);

    await makePublic(uploader, space);
    const topic = await newTopic(uploader, space, 'Open', 'public');
    const created = await uploader.post(`/v1/spaces/${space}/posts`, {
      topic,
      body: 'the file',
      attachments: [file.id],
    });
    expectStatus(created, 201);
    expectLifetime(expiryOf(created.body.attachments[0]), 120);
    const read = await request(t.http).get(`/v1/spaces/${space}/posts/${created.body.id}`);
    expectStatus(read, 200);
    expectLifetime(expiryOf(read.body.post.attachments[0]), 120);
  });

  it('serves a fresh URL no-store until it expires, and refuses it once expired', async () => {
    const status = await uploader.get(`/v1/spaces/${space}/media/${file.id}`);
    const url = status.body.media.url as string;
    const exp = expiryOf(status.body.media);
    const served = await request(t.http).get(pathOf(url));
    expectStatus(served, 200);
    expect(served.text).toBe(text.toString());
    expect(served.headers['cache-control']).toBe('no-store');
    try {
      // Five seconds before the expiry: still served, never cached.
      t.clock.offsetMs = (exp - 5) * 1000 - Date.now();
      const late = await request(t.http).get(pathOf(url));
      expectStatus(late, 200);
      expect(late.headers['cache-control']).toBe('no-store');
      // One second past it: 403.
      t.clock.offsetMs = (exp + 1) * 1000 - Date.now();
      const expired = await request(t.http).get(pathOf(url));
      expectStatus(expired, 403);
      expect(expired.body).toEqual({ code: 'E_FORBIDDEN', message: 'Expired URL signature' });
    } finally {
      t.clock.offsetMs = 0;
    }
  });

  it('refuses file and upload URLs signed under another MEDIA_URL_SECRET (403)', async () => {
    const [, mediaId, name] = SIGNED.exec(file.url)!;
    const target = { kind: 'file' as const, mediaId, filename: 'short.txt' };
    const exp = now() + 60;
    const at = (query: SignedQuery) => `/media-files/${mediaId}/${name}?${signedQueryString(query)}`;
    // The same grant signed under the app's own secret serves: only the key differs.
    const ours = signerWith(MEDIA_URL_SECRET).sign(target, exp);
    expect(ours).toEqual(t.app.get(MediaUrlSignerService).sign(target, exp));
    expectStatus(await request(t.http).get(at(ours)), 200);
    const foreign = signerWith(OTHER_SECRET).sign(target, exp);
    expect(foreign.sig).not.toBe(ours.sig);
    const refused = await request(t.http).get(at(foreign));
    expectStatus(refused, 403);
    expect(refused.body).toEqual({ code: 'E_FORBIDDEN', message: 'Invalid URL signature' });

    const minted = await mint(uploader, space, { filename: 'up.txt', contentType: 'text/plain' });
    const upload = signerWith(OTHER_SECRET).sign({ kind: 'upload', mediaId: minted.media.id }, exp);
    const put = await request(t.http)
      .put(`/uploads/${minted.media.id}?${signedQueryString(upload)}`)
      .set(minted.uploadHeaders)
      .send(Buffer.from('words\n'));
    expectStatus(put, 403);
    expect(put.body).toEqual({ code: 'E_FORBIDDEN', message: 'Invalid URL signature' });
    expect(await storedOf(t, minted.media.id)).toEqual([]);
    expect((await uploader.get(`/v1/spaces/${space}/media/${minted.media.id}`)).body.status).toBe('pending');
  });

  it('a replica under another secret refuses the first one’s URLs, and the first refuses its URLs', async () => {
    const replica = await bootMedia({
      replicaOf: t,
      env: { MEDIA_URL_TTL: '120', MEDIA_URL_SECRET: OTHER_SECRET },
    });
    try {
      const ours = (await uploader.get(`/v1/spaces/${space}/media/${file.id}`)).body.media.url as string;
      expectStatus(await request(t.http).get(pathOf(ours)), 200);
      const refused = await request(replica.http).get(pathOf(ours));
      expectStatus(refused, 403);
      expect(refused.body).toEqual({ code: 'E_FORBIDDEN', message: 'Invalid URL signature' });

      const status = await request(replica.http)
        .get(`/v1/spaces/${space}/media/${file.id}`)
        .set(uploader.headers('GET', `/v1/spaces/${space}/media/${file.id}`));
      expectStatus(status, 200);
      const theirs = status.body.media.url as string;
      expect(theirs).not.toBe(ours);
      const served = await request(replica.http).get(pathOf(theirs));
      expectStatus(served, 200);
      expect(served.text).toBe(text.toString());
      expectStatus(await request(t.http).get(pathOf(theirs)), 403);
    } finally {
      await replica.close();
    }
  });
});
