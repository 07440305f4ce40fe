import type { ByteRange } from '../services/storage/media-storage';

export type RangeAnswer =
  { kind: 'whole' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' };

const SINGLE_RANGE = /^bytes=(\d{0,15})-(\d{0,15})$/;

/**
 * What a `Range` header asks of a file of `size` bytes (RFC 9110 §14): one range, `a-b`, `a-` or
 * the suffix `-n`. A header that is absent, malformed, or asks for several ranges is ignored (the
 * whole file, 200); a range starting past the end is unsatisfiable (416).
 */
export function rangeOf(header: string | undefined, size: number): RangeAnswer {
  const match = header === undefined ? null : SINGLE_RANGE.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'whole' };
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(match[1]);
  if (match[2] !== '' && Number(match[2]) < start) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  const last = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  return { kind: 'partial', range: { start, end: last } };
}

/** Whether an `If-None-Match` header names this ETag (or `*`). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}
