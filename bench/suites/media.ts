import sharp from 'sharp';
import { PlatClient, PlatIdentity } from '../../src/protocol/client';
import { SkipScenario, type PlanContext, type Scenario } from '../scenario-kit';
import { BIG_SPACE, spaceId } from '../seed-plan';

/**
 * Media reads (issue 13 item 9). Once per run the bench reader (a member of the big space)
 * uploads one 1200×800 PNG through the app's own routes (v1 mint, then the signed PUT) and asks
 * for its 320×240 variant once, so the measured requests read the variant from storage.
 *
 * - `media cdn cached variant`: GET /cdn/{media}/{name}?w=320&h=240&fit=cover, anonymous: the
 *   stored variant with its ETag and immutable caching. Read beside `health ready`.
 * - `media v1 status`: GET /v1/spaces/{space}/media/{media} with the reader's read proof. Read
 *   beside `own profile with a request proof` (the same proof check, one row read).
 *
 * No twins yet: a bare node:http twin streaming the same file (and answering the status bytes)
 * belongs in bench/twin/.
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

export const mediaScenarios: Scenario[] = [
  {
    name: 'media cdn cached variant',
    group: 'read',
    request: async (context) => {
      const media = await fixture(context);
      return { method: 'GET', path: cdnPath(media.mediaId, media.filename) };
    },
    against: { kind: 'none' },
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
];
