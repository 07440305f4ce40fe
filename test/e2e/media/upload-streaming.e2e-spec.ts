import { Actor } from '../../support/actors';
import {
  bootMedia,
  expectStatus,
  MediaTestApp,
  MiB,
  mint,
  newSpace,
  pathOf,
  person,
  png,
  storedFiles,
  storedOf,
  upload,
  uploadChunked,
} from './support';
import { IncomingMessage, request as httpRequest, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The app's HTTP server listening on a loopback port (for a client that hangs up mid-body). */
async function listening(t: MediaTestApp): Promise<number> {
  const server = t.http as Server;
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A PNG's first bytes followed by filler up to `size`: sniffs as PNG, as large as wanted. */
async function pngOfSize(size: number): Promise<Buffer> {
  const head = await png(8, 8);
  return Buffer.concat([head, Buffer.alloc(size - head.length, 7)]);
}

/** Waits for the server to settle an interrupted upload (it learns of it asynchronously). */
async function eventually(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not reached');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('uploads stream to storage under the size limit (design.md §11 "Upload")', () => {
  let t: MediaTestApp;
  let uploader: Actor;
  let space: { id: string };

  beforeAll(async () => {
    t = await bootMedia();
    uploader = await person(t);
    space = await newSpace(uploader, 'Streams');
  });

  afterAll(() => t?.close());

  const status = async (id: string) =>
    (await uploader.get(`/v1/spaces/${space.id}/media/${id}`)).body.status as string;

  it('refuses an image of 10 MiB + 1 byte announced by Content-Length: 413, failed, nothing kept', async () => {
    const minted = await mint(uploader, space.id, { filename: 'big.png', contentType: 'image/png' });
    const response = await upload(t, minted.uploadUrl, await pngOfSize(10 * MiB + 1), minted.uploadHeaders);
    expectStatus(response, 413);
    expect(response.body).toEqual({
      code: 'E_PAYLOAD_TOO_LARGE',
      message: 'The upload is larger than 10485760 bytes',
    });
    expect(await status(minted.media.id)).toBe('failed');
    expect(await storedOf(t, minted.media.id)).toEqual([]);
  });

  it('refuses it mid-stream when no length is announced (chunked): 413, nothing kept', async () => {
    const minted = await mint(uploader, space.id, { filename: 'stream.png', contentType: 'image/png' });
    const body = await pngOfSize(10 * MiB + 1);
    const chunks = Array.from({ length: Math.ceil(body.length / MiB) }, (_, index) =>
      body.subarray(index * MiB, (index + 1) * MiB),
    );
    const response = await uploadChunked(t, minted.uploadUrl, chunks, minted.uploadHeaders);
    expectStatus(response, 413);
    expect(response.body.code).toBe('E_PAYLOAD_TOO_LARGE');
    expect(await status(minted.media.id)).toBe('failed');
    expect(await storedFiles(t)).not.toContainEqual(expect.stringMatching(/^\.incoming\//));
    expect(await storedOf(t, minted.media.id)).toEqual([]);
  });

  it('answers 413 while the client is still sending, and reads on behind the answer', async () => {
    // The client sends 11 MiB and keeps the request open: the refusal must not wait for its end.
    const minted = await mint(uploader, space.id, { filename: 'open.png', contentType: 'image/png' });
    const port = await listening(t);
    const call = httpRequest({ host: '127.0.0.1', port, method: 'PUT', path: pathOf(minted.uploadUrl) });
    for (const [name, value] of Object.entries(minted.uploadHeaders)) call.setHeader(name, value);
    call.on('error', () => undefined);
    const answered = new Promise<IncomingMessage>((resolve) => call.once('response', resolve));
    const body = await pngOfSize(11 * MiB);
    for (let offset = 0; offset < body.length; offset += MiB) call.write(body.subarray(offset, offset + MiB));
    const response = await answered;
    expect(response.statusCode).toBe(413);
    const text = await new Promise<string>((resolve) => {
      let read = '';
      response.on('data', (chunk: Buffer) => (read += chunk.toString()));
      response.once('end', () => resolve(read));
    });
    expect(JSON.parse(text)).toEqual({
      code: 'E_PAYLOAD_TOO_LARGE',
      message: 'The upload is larger than 10485760 bytes',
    });
    // Still open and still read: more bytes are taken without a reset.
    expect(call.write(Buffer.alloc(MiB))).toBeDefined();
    call.destroy();
    expect(await status(minted.media.id)).toBe('failed');
  });

  it('with Expect: 100-continue, refuses a too large announced body before any byte is sent', async () => {
    const port = await listening(t);
    const expecting = async (contentLength: number, body: () => Promise<Buffer>) => {
      const minted = await mint(uploader, space.id, { filename: 'ask.png', contentType: 'image/png' });
      const call = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'PUT',
        path: pathOf(minted.uploadUrl),
        headers: { ...minted.uploadHeaders, 'Content-Length': String(contentLength), Expect: '100-continue' },
      });
      call.on('error', () => undefined);
      let continued = false;
      call.once('continue', () => {
        continued = true;
        void body().then((bytes) => call.end(bytes));
      });
      const response = await new Promise<IncomingMessage>((resolve) => call.once('response', resolve));
      response.resume();
      call.destroy();
      return { status: response.statusCode, continued, media: minted.media.id };
    };
    const refused = await expecting(10 * MiB + 1, () => pngOfSize(10 * MiB + 1));
    expect(refused).toMatchObject({ status: 413, continued: false });
    expect(await status(refused.media)).toBe('failed');
    const small = await png();
    expect(await expecting(small.length, async () => small)).toMatchObject({ status: 200, continued: true });
  });

  it('takes an image of exactly 10 MiB, streamed in chunks', async () => {
    const minted = await mint(uploader, space.id, { filename: 'edge.png', contentType: 'image/png' });
    const body = await pngOfSize(10 * MiB);
    const chunks = Array.from({ length: 10 }, (_, index) => body.subarray(index * MiB, (index + 1) * MiB));
    const response = await uploadChunked(t, minted.uploadUrl, chunks, minted.uploadHeaders);
    expectStatus(response, 200);
    expect(response.body.media.contentLength).toBe(10 * MiB);
    expect(await storedOf(t, minted.media.id)).toHaveLength(1);
  });

  it('keeps nothing of an upload the client abandons, and the media still takes its bytes', async () => {
    const minted = await mint(uploader, space.id, { filename: 'gone.png', contentType: 'image/png' });
    const body = await pngOfSize(3 * MiB);
    const port = await listening(t);
    const call = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'PUT',
      path: pathOf(minted.uploadUrl),
      headers: { ...minted.uploadHeaders, 'Content-Length': String(body.length) },
    });
    call.on('error', () => undefined);
    call.write(body.subarray(0, MiB));
    await eventually(async () => (await storedFiles(t)).some((path) => path.startsWith('.incoming/')));
    call.destroy();
    await eventually(async () => (await storedFiles(t)).every((path) => !path.startsWith('.incoming/')));
    expect(await storedOf(t, minted.media.id)).toEqual([]);
    expect(await status(minted.media.id)).toBe('pending');
    expectStatus(await upload(t, minted.uploadUrl, await png(), minted.uploadHeaders), 200);
  });

  it('stores plain text as declared (it cannot be sniffed) but not binary bytes declared as text', async () => {
    const text = await mint(uploader, space.id, { filename: 'notes.txt', contentType: 'text/plain' });
    const stored = await upload(t, text.uploadUrl, Buffer.from('just some words\n'), text.uploadHeaders);
    expectStatus(stored, 200);
    expect(stored.body.status).toBe('ready');
    const binary = await mint(uploader, space.id, { filename: 'fake.txt', contentType: 'text/plain' });
    expectStatus(await upload(t, binary.uploadUrl, await png(), binary.uploadHeaders), 400);
    const any = await mint(uploader, space.id, {
      filename: 'blob.bin',
      contentType: 'application/octet-stream',
    });
    expectStatus(await upload(t, any.uploadUrl, await png(), any.uploadHeaders), 200);
  });
});
