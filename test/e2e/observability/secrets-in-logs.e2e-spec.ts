import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import request from 'supertest';
import { refuseWrites } from '../../support/faults';
import { CapturedLog, LogLine } from '../../support/log-capture';
import { Actor } from '../../support/actors';
import {
  bootMedia,
  expectStatus,
  MediaTestApp,
  mint,
  newSpace,
  pathOf,
  person,
  storedOf,
  upload,
} from '../media/support';

/** The `sig` of a signed URL the service handed out. */
const sigOf = (url: string) => new URL(url).searchParams.get('sig')!;

/**
 * Signed URLs stay out of the logs (docs/decisions/0122-secrets-out-of-logs.md). The attack: upload URLs and media-file URLs carry their signature in the query
 * (`?exp&sig=`), and access and error lines used to write the URL verbatim, so whoever reads the
 * logs could upload into, or download, a private file for the hour the URL lives. Now every line
 * names such a URL with `sig=[redacted]`; the captured log holds no signature value at all.
 */
describe('signed URLs stay out of the logs (0122-secrets-out-of-logs, e2e)', () => {
  let t: MediaTestApp;
  let uploader: Actor;
  let space: { id: string };
  const log = new CapturedLog();
  const signatures: string[] = [];

  /** The lines of one request, once its access line is in (written when the response finishes). */
  const linesOf = async (requestId: string): Promise<LogLine[]> => {
    for (let i = 0; i < 100 && !log.linesOf(requestId).some((line) => line.res); i++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    return log.linesOf(requestId);
  };

  beforeAll(async () => {
    t = await bootMedia({ env: { LOG_LEVEL: 'info' }, override: log.install });
    uploader = await person(t);
    space = await newSpace(uploader, 'Logged');
  });

  afterAll(() => t?.close());

  afterEach(() => {
    // Whatever a test did, no signature it saw reached a line.
    for (const sig of signatures) expect(log.text).not.toContain(sig);
  });

  it('logs an upload and the fetch of its signed media-file URL with sig=[redacted]', async () => {
    const minted = await mint(uploader, space.id, { filename: 'notes.txt', contentType: 'text/plain' });
    signatures.push(sigOf(minted.uploadUrl));
    const put = await upload(t, minted.uploadUrl, Buffer.from('private notes'), minted.uploadHeaders).set(
      'X-Request-Id',
      'upload-1',
    );
    expectStatus(put, 200);
    const fileUrl = put.body.media.url as string;
    signatures.push(sigOf(fileUrl));

    const fetched = await request(t.http).get(pathOf(fileUrl)).set('X-Request-Id', 'fetch-1');
    expectStatus(fetched, 200);

    const [uploaded] = (await linesOf('upload-1')).filter((line) => line.res);
    const exp = new URL(minted.uploadUrl).searchParams.get('exp');
    expect(uploaded.req?.url).toBe(`/uploads/${minted.media.id}?exp=${exp}&sig=[redacted]`);
    const [served] = (await linesOf('fetch-1')).filter((line) => line.res);
    expect(served.req?.url).toMatch(
      /^\/media-files\/media_[0-9a-f]{32}\/notes\.txt\?exp=\d+&sig=\[redacted\]$/,
    );
    expect(served.res?.statusCode).toBe(200);
  });

  it('redacts the URL on the error lines of an upload that fails (a 500 and its stack)', async () => {
    const minted = await mint(uploader, space.id, { filename: 'broken.txt', contentType: 'text/plain' });
    signatures.push(sigOf(minted.uploadUrl));
    const repair = await refuseWrites(t.dataSource, 'media', 'UPDATE');
    try {
      const put = await upload(t, minted.uploadUrl, Buffer.from('never stored'), minted.uploadHeaders).set(
        'X-Request-Id',
        'upload-500',
      );
      expectStatus(put, 500);
    } finally {
      await repair();
    }
    const lines = await linesOf('upload-500');
    // The filter's line with the stack, and the access line `request errored`, both at error level.
    const errors = lines.filter((line) => line.level === 50);
    expect(errors.map((line) => line.msg)).toEqual(
      expect.arrayContaining([expect.stringContaining('forced failure'), 'request errored']),
    );
    for (const line of errors) expect(line.req?.url).toMatch(/\?exp=\d+&sig=\[redacted\]$/);
  });

  it('redacts the URL on the error lines of a media-file fetch that fails, and on refused ones', async () => {
    const minted = await mint(uploader, space.id, { filename: 'gone.txt', contentType: 'text/plain' });
    signatures.push(sigOf(minted.uploadUrl));
    const put = await upload(t, minted.uploadUrl, Buffer.from('soon gone'), minted.uploadHeaders);
    expectStatus(put, 200);
    const fileUrl = put.body.media.url as string;
    signatures.push(sigOf(fileUrl));
    // The disk loses the object: the signed fetch fails on the server's side.
    for (const path of await storedOf(t, minted.media.id)) await rm(join(t.mediaDir, path));
    const failed = await request(t.http).get(pathOf(fileUrl)).set('X-Request-Id', 'fetch-500');
    expectStatus(failed, 500);
    const errors = (await linesOf('fetch-500')).filter((line) => line.level === 50);
    expect(errors.length).toBeGreaterThanOrEqual(2);
    for (const line of errors) expect(line.req?.url).toMatch(/\?exp=\d+&sig=\[redacted\]$/);

    // A refused URL (expiry moved, signature kept) is logged as a warning, redacted the same way.
    const tampered = pathOf(fileUrl).replace(/exp=(\d+)/, (_all, exp: string) => `exp=${Number(exp) + 1}`);
    const refused = await request(t.http).get(tampered).set('X-Request-Id', 'fetch-403');
    expectStatus(refused, 403);
    const [warned] = (await linesOf('fetch-403')).filter((line) => line.res);
    expect(warned.level).toBe(40);
    expect(warned.req?.url).toMatch(/\?exp=\d+&sig=\[redacted\]$/);
  });

  it('never logs a signature under another spelling of its name', async () => {
    const minted = await mint(uploader, space.id, { filename: 'spelled.txt', contentType: 'text/plain' });
    const sig = sigOf(minted.uploadUrl);
    signatures.push(sig);
    const exp = new URL(minted.uploadUrl).searchParams.get('exp');
    // `%73ig` decodes to `sig`: the router reads it as the signature, and so does the redaction.
    const put = await request(t.http)
      .put(`/uploads/${minted.media.id}?exp=${exp}&%73ig=${sig}`)
      .set(minted.uploadHeaders)
      .set('X-Request-Id', 'upload-spelled')
      .send(Buffer.from('spelled'));
    expectStatus(put, 200);
    const [line] = (await linesOf('upload-spelled')).filter((entry) => entry.res);
    expect(line.req?.url).toBe(`/uploads/${minted.media.id}?exp=${exp}&%73ig=[redacted]`);
  });

  it('never logs a key-proof code, an invite code or a token sent in a query', async () => {
    const secrets = ['KPCODE77', 'INVITE9Z', 'JOINCODE5', 'tok3n-value-1'];
    const asked: [string, string][] = [
      ['GET', '/v1/key-proof/status?code=KPCODE77'],
      ['GET', '/.well-known/plat-key-proof?code=KPCODE77'],
      ['GET', '/key-proofs/KPCODE77'],
      ['GET', '/spaces/invites/INVITE9Z'],
      ['POST', '/spaces/join/JOINCODE5'],
      ['GET', '/v1/spaces?access_token=tok3n-value-1'],
    ];
    for (const [method, path] of asked) {
      const id = `codes-${asked.findIndex(([, p]) => p === path)}`;
      const call = method === 'GET' ? request(t.http).get(path) : request(t.http).post(path).send({});
      await call.set('X-Request-Id', id);
      const [line] = (await linesOf(id)).filter((entry) => entry.res);
      expect(line.req?.url).toContain('[redacted]');
    }
    for (const secret of secrets) expect(log.text).not.toContain(secret);
  });
});
