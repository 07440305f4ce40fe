import sharp from 'sharp';
import request, { Response } from 'supertest';
import { TestApp } from './app';

/** Whoever uploads: an `Actor` or a spaces `Caller` (both sign their requests). */
interface Uploader {
  post(path: string, body?: unknown): Promise<Response>;
}

function expectCreated(response: Response, status: number): void {
  if (response.status !== status) {
    throw new Error(`expected ${status}, got ${response.status}: ${JSON.stringify(response.body)}`);
  }
}

/** A small PNG made by sharp. */
export function pngBytes(width = 40, height = 30): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 90, g: 160, b: 30 } } })
    .png()
    .toBuffer();
}

/** A ready legacy image of the uploader (POST /media, then the PUT): its media id. */
export async function legacyImage(t: TestApp, uploader: Uploader, filename = 'image.png'): Promise<string> {
  const minted = await uploader.post('/media', { filename, contentType: 'image/png' });
  expectCreated(minted, 201);
  const url = new URL(minted.body.uploadUrl as string);
  const put = await request(t.http)
    .put(url.pathname + url.search)
    .set({ 'Content-Type': 'image/png', 'Content-Disposition': minted.body.contentDispositionHeader })
    .send(await pngBytes());
  expectCreated(put, 200);
  return minted.body.media.id as string;
}

/**
 * A v1 upload of the uploader to a space (mint, then the PUT of `bytes`): its media id. Images are
 * ready at once; other kinds may still be processing (see `settled` in the media e2e support).
 */
export async function spaceUpload(
  t: TestApp,
  uploader: Uploader,
  spaceId: string,
  file: { filename: string; contentType: string; bytes: Buffer },
): Promise<string> {
  const minted = await uploader.post(`/v1/spaces/${spaceId}/media`, {
    filename: file.filename,
    contentType: file.contentType,
  });
  expectCreated(minted, 201);
  const url = new URL(minted.body.uploadUrl as string);
  const put = await request(t.http)
    .put(url.pathname + url.search)
    .set(minted.body.uploadHeaders as Record<string, string>)
    .send(file.bytes);
  expectCreated(put, 200);
  return minted.body.media.id as string;
}

/** A media id that names nothing. */
export const UNKNOWN_MEDIA = `media_${'c'.repeat(32)}`;
