import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import request, { Response } from 'supertest';
import { Actor } from '../../support/actors';
import { admit, makePublic, newSpace, person } from '../memberships/support';
import { bootSpaces, expectInvalid, expectNotFound, expectStatus, SpacesTestApp } from '../spaces/support';
import { BootOptions } from '../../support/app';

export { admit, expectInvalid, expectNotFound, expectStatus, makePublic, newSpace, person };

export const MEDIA_URL_SECRET = 'test-media-url-secret-test-media-url-secret';
export const MEDIA_ID = /^media_[0-9a-f]{32}$/;
export const MiB = 1024 * 1024;

export interface MediaTestApp extends SpacesTestApp {
  /** The local store's directory (MEDIA_DIR), fresh per app. */
  mediaDir: string;
}

/**
 * The service on a fresh database and a fresh media directory (or the storage `env` names); with
 * `replicaOf`, another replica of that service (its database and media directory, which the first
 * one removes when it closes).
 */
export async function bootMedia(
  options: Pick<BootOptions, 'env' | 'override'> & { replicaOf?: MediaTestApp } = {},
): Promise<MediaTestApp> {
  const { replicaOf, ...boot } = options;
  const mediaDir = replicaOf?.mediaDir ?? (await mkdtemp(join(tmpdir(), 'plat-media-e2e-')));
  const t = await bootSpaces({
    ...boot,
    databaseUrl: replicaOf?.databaseUrl,
    env: { MEDIA_DIR: mediaDir, MEDIA_URL_SECRET, ...boot.env },
  });
  return {
    ...t,
    mediaDir,
    close: async () => {
      try {
        await t.close();
      } finally {
        if (!replicaOf) await rm(mediaDir, { recursive: true, force: true });
      }
    },
  };
}

/** The path and query of an absolute URL the service handed out (supertest talks to the app). */
export function pathOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

/** A PNG of the given size, made by sharp. */
export function png(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .png()
    .toBuffer();
}

export function jpeg(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 240 } } })
    .jpeg()
    .toBuffer();
}

/** PUTs bytes to an upload URL with the headers given (Content-Type by default as declared). */
export function upload(t: MediaTestApp, uploadUrl: string, bytes: Buffer, headers: Record<string, string>) {
  return request(t.http).put(pathOf(uploadUrl)).set(headers).send(bytes);
}

/** PUTs bytes in chunks without Content-Length (chunked transfer coding). */
export async function uploadChunked(
  t: MediaTestApp,
  uploadUrl: string,
  chunks: Buffer[],
  headers: Record<string, string>,
): Promise<Response> {
  const call = request(t.http).put(pathOf(uploadUrl)).set(headers);
  for (const chunk of chunks) call.write(chunk);
  return call;
}

/** Mints a v1 upload; expects 201. */
export async function mint(
  uploader: Actor,
  spaceId: string,
  body: Record<string, unknown>,
  options: { credential?: string } = {},
): Promise<{
  media: Record<string, unknown> & { id: string };
  uploadUrl: string;
  uploadHeaders: Record<string, string>;
}> {
  const response = await uploader.post(`/v1/spaces/${spaceId}/media`, body, options);
  expectStatus(response, 201);
  return response.body;
}

/** Mints and uploads; expects the upload to be answered 200. */
export async function uploaded(
  t: MediaTestApp,
  uploader: Actor,
  spaceId: string,
  body: Record<string, unknown>,
  bytes: Buffer,
): Promise<Record<string, unknown> & { id: string }> {
  const minted = await mint(uploader, spaceId, body);
  const response = await upload(t, minted.uploadUrl, bytes, minted.uploadHeaders);
  expectStatus(response, 200);
  return response.body.media;
}

/** Every object file under the local store (relative paths), `.incoming` included. */
export async function storedFiles(t: MediaTestApp): Promise<string[]> {
  const entries = await readdir(t.mediaDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(t.mediaDir.length + 1))
    .sort();
}

/** The stored objects of one media (its uuid is its directory in the local store). */
export async function storedOf(t: MediaTestApp, mediaId: string): Promise<string[]> {
  const uuid = uuidOf(mediaId);
  return (await storedFiles(t)).filter((path) => path.startsWith(`${uuid}/`));
}

export function readStored(t: MediaTestApp, path: string): Promise<Buffer> {
  return readFile(join(t.mediaDir, path));
}

export function uuidOf(mediaId: string): string {
  const hex = mediaId.slice('media_'.length);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** An animated GIF of `frames` solid frames of `size`×`size`, made by sharp. */
export async function animatedGif(
  size = 20,
  colors: [number, number, number][] = [
    [255, 0, 0],
    [0, 255, 0],
    [0, 0, 255],
  ],
): Promise<Buffer> {
  const frames = await Promise.all(
    colors.map(([r, g, b]) =>
      sharp({ create: { width: size, height: size, channels: 3, background: { r, g, b } } })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(frames, { join: { animated: true } })
    .gif({ loop: 0, delay: colors.map(() => 100) })
    .toBuffer();
}

/** What an image's bytes decode to: format, size of one frame, and frames. */
export async function decoded(
  bytes: Buffer,
): Promise<{ format: string; width: number; height: number; pages: number }> {
  const metadata = await sharp(bytes, { animated: true }).metadata();
  const pages = metadata.pages ?? 1;
  const format = metadata.format === 'heif' && metadata.compression === 'av1' ? 'avif' : metadata.format;
  return { format, width: metadata.width, height: metadata.pageHeight ?? metadata.height, pages };
}

/** A WAV header (so it sniffs as audio/wav) whose format chunk is cut short: ffprobe refuses it. */
export function truncatedWav(): Buffer {
  const bytes = Buffer.alloc(300, 0x41);
  bytes.write('RIFF', 0);
  bytes.writeUInt32LE(292, 4);
  bytes.write('WAVE', 8);
  bytes.write('fmt ', 12);
  bytes.writeUInt32LE(4, 16);
  return bytes;
}

/** Whether this machine has ffmpeg and ffprobe (CI installs them; `.ci/run`). */
export const FFMPEG_PRESENT =
  spawnSync('ffmpeg', ['-version']).status === 0 && spawnSync('ffprobe', ['-version']).status === 0;

/** A file ffmpeg writes from `args` (inputs and options; the output name last is added). */
export async function withFfmpeg(args: string[], extension: string): Promise<Buffer> {
  const directory = await mkdtemp(join(tmpdir(), 'plat-ffmpeg-'));
  try {
    const output = join(directory, `out.${extension}`);
    const run = spawnSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      ...args.map((arg) => arg.replace('{dir}', directory)),
      output,
    ]);
    if (run.status !== 0) throw new Error(`ffmpeg failed: ${run.stderr.toString()}`);
    return await readFile(output);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** A mono 16-bit PCM WAV of a sine tone, written byte by byte (no ffmpeg needed). */
export function wav(seconds: number, sampleRate = 8000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const data = Buffer.alloc(samples * 2);
  for (let index = 0; index < samples; index++) {
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * index) / sampleRate) * 12000), index * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** Polls the status route until the media is no longer pending (its processing job has run). */
export async function settled(
  uploader: Actor,
  spaceId: string,
  mediaId: string,
  timeoutMs = 30000,
): Promise<{ media: Record<string, unknown> & { id: string; url: string }; status: string }> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const response = await uploader.get(`/v1/spaces/${spaceId}/media/${mediaId}`);
    expectStatus(response, 200);
    if (response.body.status !== 'pending') return response.body;
    if (Date.now() > until) throw new Error(`media ${mediaId} still pending`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
