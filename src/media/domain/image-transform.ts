import { createHash } from 'node:crypto';
import type { Media } from '../entities/media.entity';

export const IMAGE_FITS = ['cover', 'contain', 'fill', 'inside', 'outside'] as const;
export type ImageFit = (typeof IMAGE_FITS)[number];

/** Output formats: the original's, or what `auto=format` negotiates. */
export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'avif';

export const FORMAT_TYPES: Record<ImageFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
};

const ORIGINAL_FORMATS: Record<string, ImageFormat> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/** One rendition of an image: the original when nothing is asked, else a variant kept in storage. */
export interface ImageTransform {
  width?: number;
  height?: number;
  fit: ImageFit;
  format: ImageFormat;
}

export function originalFormatOf(media: Media): ImageFormat {
  return ORIGINAL_FORMATS[media.contentType];
}

/** Whether a transform asks for anything but the original bytes. */
export function isOriginal(media: Media, transform: ImageTransform): boolean {
  return (
    transform.width === undefined &&
    transform.height === undefined &&
    transform.format === originalFormatOf(media)
  );
}

/** Where a variant is kept: beside the original, named by what it is. */
export function variantKey(media: Media, transform: ImageTransform): string {
  return `${media.id}/variants/w${transform.width ?? 'auto'}-h${transform.height ?? 'auto'}-${transform.fit}.${transform.format}`;
}

/** A strong ETag for immutable bytes stored under `key`. */
export function etagOf(key: string): string {
  return `"${createHash('sha256').update(key).digest('base64url').slice(0, 27)}"`;
}

/**
 * `auto=format`: AVIF when the client accepts it, else WebP, else the original format. An
 * animation is never made AVIF (sharp writes AVIF stills only): WebP keeps it animated.
 */
export function negotiatedFormat(
  original: ImageFormat,
  accept: string | undefined,
  animated: boolean,
): ImageFormat {
  const accepted = acceptedTypes(accept);
  if (!animated && accepted.has('image/avif')) return 'avif';
  if (accepted.has('image/webp')) return 'webp';
  return original;
}

/** The media types an Accept header takes (q > 0); wildcards are not a preference for a format. */
function acceptedTypes(accept: string | undefined): Set<string> {
  const types = new Set<string>();
  for (const part of (accept ?? '').split(',')) {
    const [type, ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    if (type) types.add(type);
  }
  return types;
}
