import { Transform } from 'class-transformer';
import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { applyDecorators } from '@nestjs/common';
import { essenceOf } from '../domain/media-types';

export const FILENAME_MAX = 255;
export const ALT_MAX = 1000;

/**
 * A file name, not a path: no `/` or `\`, not `.` or `..`, no control characters (C0, DEL, C1),
 * line or paragraph separators, or bidirectional overrides (a name that displays as another).
 */
const FILENAME = /^(?!\.\.?$)[^/\\\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]+$/u;

export const IsMediaFilename = () =>
  applyDecorators(
    IsString(),
    MinLength(1, { message: 'filename must not be empty' }),
    MaxLength(FILENAME_MAX, { message: `filename must be at most ${FILENAME_MAX} characters` }),
    Matches(FILENAME, {
      message: 'filename must be a file name: no path separators, control characters or "." and ".."',
    }),
  );

/** `Image/PNG` is `image/png`; parameters (`; charset=…`) are dropped. */
export const ToContentTypeEssence = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? essenceOf(value) : value));
