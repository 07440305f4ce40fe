import request from 'supertest';
import { formatEntityId } from '../../../src/common/ids/entity-id';
import { MediaUrlSignerService } from '../../../src/media/services/media-url-signer.service';
import { Actor } from '../../support/actors';
import {
  bootMedia,
  expectNotFound,
  expectStatus,
  MediaTestApp,
  mint,
  newSpace,
  pathOf,
  person,
  png,
  uploaded,
  uuidOf,
} from './support';

const SIGNED =
  /^http:\/\/api\.plat\.test\/media-files\/(media_[0-9a-f]{32})\/([^?]+)\?exp=(\d+)&sig=([A-Za-z0-9_-]{43})$/;

/** A PDF as file-type recognises one (a header and a trailer are enough to sniff). */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

describe('media files by signed URL, with Range (design.md §11 "URLs")', () => {
  let t: MediaTestApp;
  let uploader: Actor;
  let space: { id: string };
  let file: Record<string, unknown> & { id: string; url: string };
  const text = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz');

  const get = (url: string, headers: Record<string, string> = {}) =>
    request(t.http).get(pathOf(url)).set(headers).responseType('blob');

  beforeAll(async () => {
    t = await bootMedia();
    uploader = await person(t);
    space = await newSpace(uploader, 'Files');
    file = (await uploaded(
      t,
      uploader,
      space.id,
      { filename: 'notes one.txt', contentType: 'text/plain' },
      text,
    )) as typeof file;
  });

  afterAll(() => t?.close());

  it('gives audio, video and files a signed URL and says when it expires', () => {
    const [, id, name, exp] = SIGNED.exec(file.url)!;
    expect(id).toBe(file.id);
    expect(name).toBe('notes%20one.txt');
    expect(file).toEqual({
      id: file.id,
      filename: 'notes one.txt',
      url: file.url,
      contentType: 'text/plain',
      contentLength: text.length,
      urlExpiresAt: new Date(Number(exp) * 1000).toISOString(),
    });
    const now = Math.floor(t.clock.now().getTime() / 1000);
    expect(Number(exp) - now).toBeGreaterThanOrEqual(3599);
    expect(Number(exp) - now).toBeLessThanOrEqual(3600);
  });

  it('serves the whole file: 200, its type, length, Accept-Ranges, an ETag, no-store like every data response', async () => {
    const response = await get(file.url);
    expectStatus(response, 200);
    expect(response.body).toEqual(text);
    expect(response.headers).toEqual(
      expect.objectContaining({
        'content-type': 'text/plain',
        'content-length': String(text.length),
        'accept-ranges': 'bytes',
        'content-disposition': 'attachment; filename="notes one.txt"',
        etag: expect.stringMatching(/^"[A-Za-z0-9_-]{27}"$/),
        // api-spec.md: "Data responses always carry `Cache-Control: no-store`" (it was private, max-age).
        'cache-control': 'no-store',
      }),
    );
    const again = await get(file.url, { 'If-None-Match': response.headers.etag });
    expectStatus(again, 304);
    expect(again.headers['cache-control']).toBe('no-store');
  });

  it('answers ranges with 206 and exactly those bytes, still no-store', async () => {
    const cases: [string, number, number][] = [
      ['bytes=0-4', 0, 4],
      ['bytes=0-0', 0, 0],
      ['bytes=10-', 10, 35],
      ['bytes=-3', 33, 35],
      ['bytes=30-1000', 30, 35],
      ['bytes=35-35', 35, 35],
    ];
    for (const [range, start, end] of cases) {
      const response = await get(file.url, { Range: range });
      expectStatus(response, 206);
      expect({ range, body: response.body }).toEqual({ range, body: text.subarray(start, end + 1) });
      expect(response.headers['content-range']).toBe(`bytes ${start}-${end}/${text.length}`);
      expect(response.headers['content-length']).toBe(String(end - start + 1));
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('answers a range past the end 416 with the envelope, and ignores ranges it does not serve', async () => {
    for (const range of ['bytes=36-', 'bytes=1000-2000', 'bytes=-0']) {
      const response = await request(t.http).get(pathOf(file.url)).set('Range', range);
      expectStatus(response, 416);
      expect(response.body).toEqual({ code: 'E_RANGE_NOT_SATISFIABLE', message: 'The file has 36 bytes' });
      expect(response.headers['content-range']).toBe('bytes */36');
      expect(response.headers['cache-control']).toBe('no-store');
    }
    for (const range of ['bytes=abc', 'bytes=0-1,4-5', 'items=0-4', 'bytes=5-2']) {
      const response = await get(file.url, { Range: range });
      expectStatus(response, 200);
      expect(response.body).toEqual(text);
    }
    const stale = await get(file.url, { Range: 'bytes=0-4', 'If-Range': '"other"' });
    expectStatus(stale, 200);
  });

  it('answers a tampered, foreign, renamed or expired URL 403', async () => {
    const other = await uploaded(
      t,
      uploader,
      space.id,
      { filename: 'other.txt', contentType: 'text/plain' },
      Buffer.from('x'),
    );
    const url = new URL(file.url);
    const [, , , exp, sig] = SIGNED.exec(file.url)!;
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    const attempts = [
      `${url.pathname}?exp=${exp}&sig=${flipped}`,
      `${url.pathname}?exp=${Number(exp) + 60}&sig=${sig}`,
      `${url.pathname}?exp=${exp}`,
      url.pathname,
      `/media-files/${file.id}/renamed.txt?exp=${exp}&sig=${sig}`,
      `/media-files/${other.id}/other.txt?exp=${exp}&sig=${sig}`,
    ];
    for (const attempt of attempts) {
      const response = await request(t.http).get(attempt);
      expectStatus(response, 403);
      expect(response.body.code).toBe('E_FORBIDDEN');
    }
    // Another valid encoding of the same name is the same grant.
    expectStatus(
      await request(t.http).get(`/media-files/${file.id}/notes%20one%2Etxt?exp=${exp}&sig=${sig}`),
      200,
    );
    t.clock.offsetMs = 3601 * 1000;
    try {
      const expired = await request(t.http).get(pathOf(file.url));
      expectStatus(expired, 403);
      expect(expired.body).toEqual({ code: 'E_FORBIDDEN', message: 'Expired URL signature' });
    } finally {
      t.clock.offsetMs = 0;
    }
  });

  it('serves files of other kinds; not images, not media without bytes (the constant 404)', async () => {
    const pdf = await uploaded(
      t,
      uploader,
      space.id,
      { filename: 'doc.pdf', contentType: 'application/pdf' },
      PDF,
    );
    const response = await get(pdf.url as string);
    expectStatus(response, 200);
    expect(response.body).toEqual(PDF);
    expect(response.headers['content-type']).toBe('application/pdf');

    const signer = t.app.get(MediaUrlSignerService);
    const signedPath = (mediaId: string, filename: string) => {
      const query = signer.sign({ kind: 'file', mediaId, filename }, signer.expiryIn(600));
      return `/media-files/${mediaId}/${encodeURIComponent(filename)}?exp=${query.exp}&sig=${query.sig}`;
    };
    const image = await uploaded(
      t,
      uploader,
      space.id,
      { filename: 'i.png', contentType: 'image/png' },
      await png(),
    );
    expectNotFound(await request(t.http).get(signedPath(image.id, 'i.png')));
    const pending = await mint(uploader, space.id, { filename: 'p.txt', contentType: 'text/plain' });
    expectNotFound(await request(t.http).get(pathOf(pending.media.url as string)));
    expectNotFound(
      await request(t.http).get(
        signedPath(formatEntityId('media', uuidOf('media_0190f1a2b3c4d5e6f708192a3b4c5d6e')), 'x.txt'),
      ),
    );
  });

  it('answers HEAD with the headers alone', async () => {
    const response = await request(t.http).head(pathOf(file.url));
    expectStatus(response, 200);
    expect(response.headers['content-length']).toBe(String(text.length));
    expect(response.headers['accept-ranges']).toBe('bytes');
  });
});
