import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { V1_CONTENT_TYPES } from '../domain/media-types';
import { ALT_MAX, FILENAME_MAX, IsMediaFilename, ToContentTypeEssence } from './media-fields';
import { MediaObject } from './media-object.dto';

export const MEDIA_STATUSES = ['pending', 'ready', 'failed'] as const;

/** POST /v1/spaces/{space}/media. */
export class MintMediaRequest {
  @ApiProperty({ maxLength: FILENAME_MAX, example: 'sunrise.png' })
  @IsMediaFilename()
  filename: string;

  @ApiProperty({
    enum: V1_CONTENT_TYPES,
    description: 'any other file is application/octet-stream; parameters are dropped',
  })
  @ToContentTypeEssence()
  @IsString()
  @IsIn(V1_CONTENT_TYPES, {
    message: 'contentType must be a supported type (any other file is application/octet-stream)',
  })
  contentType: string;

  @ApiPropertyOptional({ minimum: 0, description: 'bytes; the upload must then be exactly this long' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  contentLength?: number;

  @ApiPropertyOptional({ maxLength: ALT_MAX, description: 'caption' })
  @IsOptional()
  @IsString()
  @MaxLength(ALT_MAX)
  alt?: string;
}

/** 201 of POST /v1/spaces/{space}/media: PUT the bytes at `uploadUrl` with `uploadHeaders`. */
export class MintedMedia {
  @ApiProperty({ type: MediaObject })
  media: MediaObject;

  @ApiProperty({
    example: 'https://api.example.com/uploads/media_0190f1a2b3c4d5e6f708192a3b4c5d6e?exp=1798761600&sig=…',
  })
  uploadUrl: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { 'Content-Type': 'image/png' },
  })
  uploadHeaders: Record<string, string>;
}

/** GET /v1/spaces/{space}/media/{media}, and the answer of a v1 upload. */
export class MediaStatusResponse {
  @ApiProperty({ type: MediaObject })
  media: MediaObject;

  @ApiProperty({ enum: MEDIA_STATUSES })
  status: (typeof MEDIA_STATUSES)[number];
}
