/** What a media is, for its size limit, its URL and its probing (design.md §11 "Kinds and limits"). */
export type MediaKind = 'image' | 'audio' | 'video' | 'file';

/**
 * One accepted declared type: its kind, and what `file-type` may find in its bytes (`null`: a type
 * that cannot be sniffed, such as plain text, where the declared type stands; `'any'`: octet-stream).
 */
export interface MediaType {
  kind: MediaKind;
  sniffed: readonly string[] | null | 'any';
  /** Accepted by the legacy POST /media (api-spec.md "Limits": PNG, JPEG, GIF, WebP). */
  legacy: boolean;
}

const image = (...sniffed: string[]): MediaType => ({ kind: 'image', sniffed, legacy: true });
const audio = (...sniffed: string[]): MediaType => ({ kind: 'audio', sniffed, legacy: false });
const video = (...sniffed: string[]): MediaType => ({ kind: 'video', sniffed, legacy: false });
const file = (sniffed: MediaType['sniffed']): MediaType => ({ kind: 'file', sniffed, legacy: false });

const MP3 = ['audio/mpeg'];
// An M4A's brand may be `M4A ` (audio/x-m4a) or a generic MP4 one; raw AAC is ADTS.
const M4A = ['audio/x-m4a', 'audio/mp4', 'audio/aac', 'video/mp4'];
const WAV = ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave'];
const OGG = ['audio/ogg', 'audio/opus', 'application/ogg'];
const FLAC = ['audio/flac', 'audio/x-flac'];

/**
 * The content types an upload may declare (lower case, no parameters). Every other file is
 * declared `application/octet-stream`; an unknown type is refused, so nothing is served under a
 * type the service did not check.
 */
export const MEDIA_TYPES: Readonly<Record<string, MediaType>> = {
  'image/png': image('image/png', 'image/apng'),
  'image/jpeg': image('image/jpeg'),
  'image/gif': image('image/gif'),
  'image/webp': image('image/webp'),
  'audio/mpeg': audio(...MP3),
  'audio/mp4': audio(...M4A),
  'audio/x-m4a': audio(...M4A),
  'audio/aac': audio(...M4A),
  'audio/wav': audio(...WAV),
  'audio/x-wav': audio(...WAV),
  'audio/wave': audio(...WAV),
  'audio/ogg': audio(...OGG),
  'audio/opus': audio(...OGG),
  'audio/flac': audio(...FLAC),
  'audio/x-flac': audio(...FLAC),
  'video/mp4': video('video/mp4', 'video/x-m4v'),
  'video/webm': video('video/webm'),
  'video/quicktime': video('video/quicktime'),
  'application/pdf': file(['application/pdf']),
  'application/zip': file(['application/zip']),
  'text/plain': file(null),
  'application/octet-stream': file('any'),
};

export const V1_CONTENT_TYPES = Object.keys(MEDIA_TYPES);
export const LEGACY_CONTENT_TYPES = V1_CONTENT_TYPES.filter((type) => MEDIA_TYPES[type].legacy);

/** The type's essence, lower case (`Image/PNG; x=1` → `image/png`). */
export function essenceOf(contentType: string): string {
  return contentType.split(';', 1)[0].trim().toLowerCase();
}

/**
 * Whether bytes `file-type` found to be `sniffed` (undefined: nothing recognised) may be stored
 * under the declared type. Text may sniff as a text format (WebVTT, iCalendar) but never as binary.
 */
export function bytesMatch(declared: string, sniffed: string | undefined): boolean {
  const expected = MEDIA_TYPES[declared]?.sniffed;
  if (expected === undefined) return false;
  if (expected === 'any') return true;
  if (expected === null) return sniffed === undefined || sniffed.startsWith('text/');
  return sniffed !== undefined && expected.includes(essenceOf(sniffed));
}

/** The kind of an accepted declared type (its essence), or undefined for a type not accepted. */
export function mediaKindOf(contentType: string): MediaKind | undefined {
  return MEDIA_TYPES[contentType]?.kind;
}
