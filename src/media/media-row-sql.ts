import { Media, MediaState } from './entities/media.entity';
import type { MediaKind } from './domain/media-types';

/**
 * One media row by id ($1) on fixed SQL with explicit row mapping: the image route serves a
 * cached variant in a fraction of a millisecond, and TypeORM's findOneBy (query building,
 * hydration) was a tenth of it.
 */
export const MEDIA_BY_ID =
  'SELECT id, space_id, uploader_did, filename, content_type, kind, alt, declared_length, state, failure_reason, ' +
  'storage_key, content_length, width, height, blur_hash, duration_ms, waveform_peaks, poster_key, ' +
  'created_at, updated_at, uploaded_at FROM media WHERE id = $1';

export interface MediaRow {
  id: string;
  space_id: string | null;
  uploader_did: string;
  filename: string;
  content_type: string;
  kind: MediaKind;
  alt: string | null;
  /** bigint columns: node-postgres gives them as strings. */
  declared_length: string | null;
  state: MediaState;
  failure_reason: string | null;
  storage_key: string | null;
  content_length: string | null;
  width: number | null;
  height: number | null;
  blur_hash: string | null;
  duration_ms: number | null;
  waveform_peaks: number[] | null;
  poster_key: string | null;
  created_at: Date;
  updated_at: Date;
  uploaded_at: Date | null;
}

const numberOrNull = (value: string | null) => (value === null ? null : Number(value));

export function mediaOfRow(row: MediaRow): Media {
  const media = new Media();
  media.id = row.id;
  media.spaceId = row.space_id;
  media.uploaderDid = row.uploader_did;
  media.filename = row.filename;
  media.contentType = row.content_type;
  media.kind = row.kind;
  media.alt = row.alt;
  media.declaredLength = numberOrNull(row.declared_length);
  media.state = row.state;
  media.failureReason = row.failure_reason;
  media.storageKey = row.storage_key;
  media.contentLength = numberOrNull(row.content_length);
  media.width = row.width;
  media.height = row.height;
  media.blurHash = row.blur_hash;
  media.durationMs = row.duration_ms;
  media.waveformPeaks = row.waveform_peaks;
  media.posterKey = row.poster_key;
  media.createdAt = row.created_at;
  media.updatedAt = row.updated_at;
  media.uploadedAt = row.uploaded_at;
  return media;
}
