import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** Shared pagination input of every listing (api-spec.md "Pagination input"). */
export class PaginationQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer from 1 to 100' })
  @Min(1, { message: 'limit must be an integer from 1 to 100' })
  @Max(MAX_PAGE_SIZE, { message: 'limit must be an integer from 1 to 100' })
  limit: number = DEFAULT_PAGE_SIZE;

  @ApiPropertyOptional({ description: 'Opaque cursor from nextCursor' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  after?: string;

  @ApiPropertyOptional({ description: 'Opaque cursor from previousCursor' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  before?: string;
}
