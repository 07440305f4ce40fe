import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Media } from '../../src/media/entities/media.entity';
import {
  etagOf,
  FORMAT_TYPES,
  type ImageFit,
  originalFormatOf,
  variantKey,
} from '../../src/media/domain/image-transform';
import { contentDisposition } from '../../src/media/domain/content-disposition';
import { MEDIA_STATEMENTS } from '../../src/media/media.repository';
import { TwinRefusal, uuidOf, type TwinHandler } from './context';

/** The statement MediaRepository.byId sends, and the columns it reads. */
export { MEDIA_COLUMNS } from '../../src/media/media.repository';
export const MEDIA_BY_ID = MEDIA_STATEMENTS.byId;

interface MediaRow {
  id: string;
  filename: string;
  content_type: string;
  kind: string;
  state: string;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * GET /cdn/{media}/{filename}?w=…&h=…&fit=… of a variant already rendered (the bench's request
 * shape: a size asked, the original's format): the media row by id, as the app reads it, the
 * variant's size from the store, then its bytes streamed with the app's headers. The key, ETag and
 * Content-Disposition come from the app's own pure rules.
 */
export const mediaCdnVariant: TwinHandler = async ({ pool, url, mediaDir }) => {
  const [, , wireId = '', encodedName = ''] = url.pathname.split('/');
  const id = uuidOf('media', wireId);
  if (!id) throw new TwinRefusal(404, `not a media id: ${wireId}`);
  const filename = decodeURIComponent(encodedName);
  const { rows } = await pool.query<MediaRow>(MEDIA_BY_ID, [id]);
  const media = rows[0];
  if (!media || media.kind !== 'image' || media.state !== 'ready' || media.filename !== filename)
    throw new TwinRefusal(404, `no ready image ${wireId}/${filename}`);
  const format = originalFormatOf({ contentType: media.content_type } as Media);
  const dimension = (name: string) =>
    url.searchParams.has(name) ? Number(url.searchParams.get(name)) : undefined;
  const key = variantKey({ id: media.id } as Media, {
    width: dimension('w'),
    height: dimension('h'),
    fit: (url.searchParams.get('fit') ?? 'cover') as ImageFit,
    format,
  });
  const path = join(mediaDir, key);
  const { size } = await stat(path);
  return {
    status: 200,
    file: {
      path,
      headers: {
        'Cache-Control': IMMUTABLE,
        ETag: etagOf(key),
        'Content-Type': FORMAT_TYPES[format],
        'Content-Length': size,
        'Content-Disposition': contentDisposition(filename, 'inline'),
      },
    },
  };
};
