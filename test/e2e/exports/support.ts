import request from 'supertest';
import { fromBuffer, type Entry, type ZipFile } from 'yauzl';
import type { Actor } from '../../support/actors';
import type { TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';

/** The archive's entries by path: their bytes. */
export async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    fromBuffer(bytes, { lazyEntries: true }, (error, opened) => (error ? reject(error) : resolve(opened))),
  );
  const files = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry: Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', reject);
        stream.on('end', () => {
          files.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  return files;
}

/** A whole binary answer. */
export function download(t: TestApp, url: string) {
  const { pathname, search } = new URL(url);
  return request(t.http)
    .get(pathname + search)
    .buffer(true)
    .parse((response, done) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => done(null, Buffer.concat(chunks)));
    });
}

/** The owner's export of a space (`POST /v1/spaces/{space}/exports`), built, then downloaded: its bytes. */
export async function exportedSpace(t: TestApp, owner: Actor, spaceId: string): Promise<Buffer> {
  const started = await owner.post(`/v1/spaces/${spaceId}/exports`);
  expect(started.status).toBe(202);
  const ready = await eventually(
    () => owner.get(`/v1/spaces/${spaceId}/exports/${started.body.id as string}`),
    (response) => response.body.state === 'ready' || response.body.state === 'failed',
    60_000,
  );
  expect(ready.body.state).toBe('ready');
  return (await download(t, ready.body.url as string)).body as Buffer;
}
