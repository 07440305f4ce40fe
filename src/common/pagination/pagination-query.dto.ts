import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
export const MAX_CURSOR_LENGTH = 1024;

const LIMIT_MESSAGE = 'limit must be an integer from 1 to 100';

/**
 * Only plain decimal digits count as an integer: `Number()` would also read `1e1`, `0x10`, `+5` and
 * ` 10`, which are not what a client meant by a page size. Anything else stays a string and fails.
 */
function decimalLimit({ value }: { value: unknown }): unknown {
  return typeof value === 'string' && /^[0-9]{1,4}$/.test(value) ? Number(value) : value;
}

/** One message per cursor member, whichever rule fails (repeated, empty, too long). */
const cursorMessage = (name: 'after' | 'before') => ({ message: `${name} must be one cursor string` });

/** Shared pagination input of every listing (api-spec.md "Pagination input"). */
export class PaginationQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })
  @IsOptional()
  @Transform(decimalLimit)
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(MAX_PAGE_SIZE, { message: LIMIT_MESSAGE })
  limit: number = DEFAULT_PAGE_SIZE;

  @ApiPropertyOptional({ description: 'Opaque cursor from nextCursor' })
  @IsOptional()
  @IsString(cursorMessage('after'))
  @IsNotEmpty(cursorMessage('after'))
  @MaxLength(MAX_CURSOR_LENGTH, cursorMessage('after'))
  after?: string;

  @ApiPropertyOptional({ description: 'Opaque cursor from previousCursor' })
  @IsOptional()
  @IsString(cursorMessage('before'))
  @IsNotEmpty(cursorMessage('before'))
  @MaxLength(MAX_CURSOR_LENGTH, cursorMessage('before'))
  before?: string;
}
