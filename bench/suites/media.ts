import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { PlatClient, PlatIdentity } from '../../src/protocol/client';
import { buildConfig, type BenchConfig } from '../config';
import { root } from '../fleet';
import type { RequestPlan } from '../request-plan';
import { SkipScenario, type PlanContext, type Scenario } from '../scenario-kit';
import { BIG_SPACE, spaceId } from '../seed-plan';

/**
 * Media reads (docs/decisions/0081-media-in-the-bench.md). Once per run the bench reader (a member of the big space)
 * uploads one 1200×800 PNG through the app's own routes (v1 mint, then the signed PUT) and asks
 * for its 320×240 variant once, so the measured requests read the variant from storage.
 *
 * - `media cdn cached variant`: GET /cdn/{media}/{name}?w=320&h=240&fit=cover, anonymous: the
 *   stored variant with its ETag and immutable caching, against the bare twin streaming the same
 *   stored file (bench/twin/media.ts); also read beside `health ready`.
 * - `media v1 status`: GET /v1/spaces/{space}/media/{media} with the reader's read proof. Read
 *   beside `own profile with a request proof` (the same proof check, one row read).
 * - `media upload 5 MB image`: PUT of a 5 MB PNG at a signed upload URL, a fresh URL per request
 *   (minted when the run plans), through the whole upload: streamed to storage, sniffed, probed.
 *   No counterpart: reported as uploads/s, MB/s, and the app's resident memory before the load and
 *   at its peak (the body is streamed: the peak must not grow with the bodies in flight).
 * - `media upload 5 MB file`: the same with 5 MB of random bytes as a plain file (nothing to
 *   decode), to tell the upload path's memory from the image probe's.
 *
 * The status route has no twin yet (its proof check and three statements belong in bench/twin/).
 */

interface MediaFixture {
  spaceRef: string;
  mediaId: string;
  filename: string;
}

let uploaded: Promise<MediaFixture> | null = null;

function fixture(context: PlanContext): Promise<MediaFixture> {
  uploaded ??= upload(context);
  return uploaded;
}

async function upload(context: PlanContext): Promise<MediaFixture> {
  const client = new PlatClient({ baseUrl: context.appUrl, audience: context.audience });
  const identity = PlatIdentity.fromKeyFile(context.actors.reader);
  const spaceRef = `space_${spaceId(BIG_SPACE).replace(/-/g, '')}`;
  const filename = 'bench.png';
  const minted = await client.request<{ media: { id: string }; uploadUrl: string }>(
    'POST',
    `/v1/spaces/${spaceRef}/media`,
    { body: { filename, contentType: 'image/png' }, identity },
  );
  if (minted.status === 404) throw new SkipScenario('the app has no v1 media routes');
  if (minted.status !== 201) throw new Error(`media mint answered ${minted.status}`);
  const bytes = await sharp({
    create: { width: 1200, height: 800, channels: 3, background: { r: 30, g: 90, b: 160 } },
  })
    .png()
    .toBuffer();
  const target = new URL(minted.body.uploadUrl);
  const put = await fetch(`${context.appUrl}${target.pathname}${target.search}`, {
    method: 'PUT',
    headers: { 'content-type': 'image/png' },
    body: bytes,
  });
  if (put.status !== 200) throw new Error(`media upload answered ${put.status}`);
  const mediaId = minted.body.media.id;
  const variant = await fetch(`${context.appUrl}${cdnPath(mediaId, filename)}`);
  if (variant.status !== 200) throw new Error(`first variant request answered ${variant.status}`);
  context.log(`media: ${mediaId} (${bytes.length} bytes) in the big space`);
  return { spaceRef, mediaId, filename };
}

const cdnPath = (mediaId: string, filename: string) => `/cdn/${mediaId}/${filename}?w=320&h=240&fit=cover`;

/** What an upload scenario sends: its bytes, declared as `contentType` under `filename`. */
interface UploadBody {
  /**
   * The upload rate it may reach: upload URLs are minted for every round's warm-up and measured
   * seconds at that rate (each good for one upload), with the verify step's; a run that uses them
   * up says so.
   */
  uploadsPerSecond: number;
  file: string;
  filename: string;
  contentType: string;
  bytes: () => Promise<Buffer>;
}

/** A PNG of about 5 MB (1376×1376 of noise, which PNG barely compresses). */
const IMAGE_UPLOAD: UploadBody = {
  uploadsPerSecond: 45,
  file: join(root, '.data/bench-upload.png'),
  filename: 'upload.png',
  contentType: 'image/png',
  bytes: () =>
    sharp({
      create: {
        width: 1376,
        height: 1376,
        channels: 3,
        background: { r: 0, g: 0, b: 0 },
        noise: { type: 'gaussian', mean: 128, sigma: 30 },
      },
    })
      .png()
      .toBuffer(),
};

/** 5 MB of random bytes as a plain file: the upload path without an image to decode. */
const FILE_UPLOAD: UploadBody = {
  uploadsPerSecond: 180, // (900 MB/s) were seen
  file: join(root, '.data/bench-upload.bin'),
  filename: 'upload.bin',
  contentType: 'application/octet-stream',
  bytes: () => Promise.resolve(randomBytes(5_000_000)),
};

/** Every round's phases at the body's rate, the requests in flight as a phase ends, and verify's. */
export function uploadUrlsWanted(body: Pick<UploadBody, 'uploadsPerSecond'>, config: BenchConfig): number {
  const seconds = config.rounds * (config.warmupMaxSeconds + config.durationSeconds);
  return Math.ceil(body.uploadsPerSecond * seconds) + config.rounds * 2 * config.connections + 8;
}

/**
 * The body written once per run, and upload URLs of the reader's in the big space
 * for it, minted through the app.
 */
function uploadPlan(body: UploadBody): (context: PlanContext) => Promise<RequestPlan> {
  return async (context) => {
    const bytes = await body.bytes();
    await mkdir(dirname(body.file), { recursive: true });
    await writeFile(body.file, bytes);
    const client = new PlatClient({ baseUrl: context.appUrl, audience: context.audience });
    const identity = PlatIdentity.fromKeyFile(context.actors.reader);
    const spaceRef = `space_${spaceId(BIG_SPACE).replace(/-/g, '')}`;
    const mintOne = async () => {
      const minted = await client.request<{ uploadUrl: string }>('POST', `/v1/spaces/${spaceRef}/media`, {
        body: { filename: body.filename, contentType: body.contentType, contentLength: bytes.length },
        identity,
      });
      if (minted.status === 404) throw new SkipScenario('the app has no v1 media routes');
      if (minted.status !== 201) throw new Error(`media mint answered ${minted.status}`);
      const url = new URL(minted.body.uploadUrl);
      return `${url.pathname}${url.search}`;
    };
    const list: string[] = [];
    // A few at a time: minting is a signed write each.
    const wanted = uploadUrlsWanted(body, buildConfig(process.env));
    while (list.length < wanted) list.push(...(await Promise.all(Array.from({ length: 8 }, mintOne))));
    context.log(`media: ${list.length} upload URLs minted for ${body.filename} (${bytes.length} bytes)`);
    return {
      method: 'PUT',
      path: list[0],
      headers: { 'content-type': body.contentType },
      paths: { list, start: 0 },
      bodyFile: body.file,
    };
  };
}

export const mediaScenarios: Scenario[] = [
  {
    name: 'media cdn cached variant',
    group: 'read',
    request: async (context) => {
      const media = await fixture(context);
      return { method: 'GET', path: cdnPath(media.mediaId, media.filename) };
    },
    against: { kind: 'twin', handler: 'media cdn variant' },
    // An anonymous read: the target of "every other anonymous read" (bench/README.md, "Targets").
    target: { ratio: 0.6 },
    relativeTo: 'health ready',
  },
  {
    name: 'media v1 status',
    group: 'authenticated read',
    request: async (context) => {
      const media = await fixture(context);
      return {
        method: 'GET',
        path: `/v1/spaces/${media.spaceRef}/media/${media.mediaId}`,
        proof: { actors: [context.actors.reader], perRequest: false, audience: context.audience },
      };
    },
    against: { kind: 'none' },
    relativeTo: 'own profile with a request proof',
  },
  {
    name: 'media upload 5 MB image',
    group: 'write',
    request: uploadPlan(IMAGE_UPLOAD),
    against: { kind: 'none' },
    reports: { memory: true, throughput: true },
  },
  {
    name: 'media upload 5 MB file',
    group: 'write',
    request: uploadPlan(FILE_UPLOAD),
    against: { kind: 'none' },
    reports: { memory: true, throughput: true },
  },
];
