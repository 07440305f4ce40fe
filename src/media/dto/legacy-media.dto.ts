import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString } from 'class-validator';
import { LEGACY_CONTENT_TYPES } from '../domain/media-types';
import { FILENAME_MAX, IsMediaFilename, ToContentTypeEssence } from './media-fields';
import { MEDIA_ID_EXAMPLE } from './media-object.dto';

/** POST /media (api-spec.md "Legacy namespaces": PNG, JPEG, GIF, WebP up to 10 MB). */
export class LegacyMintMediaRequest {
  @ApiProperty({ maxLength: FILENAME_MAX, example: 'avatar.png' })
  @IsMediaFilename()
  filename: string;

  @ApiProperty({ enum: LEGACY_CONTENT_TYPES })
  @ToContentTypeEssence()
  @IsString()
  @IsIn(LEGACY_CONTENT_TYPES, {
    message: 'contentType must be image/png, image/jpeg, image/gif or image/webp',
  })
  contentType: string;
}

export class LegacyMediaSummary {
  @ApiProperty({ example: MEDIA_ID_EXAMPLE })
  id: string;

  @ApiProperty()
  filename: string;

  @ApiProperty()
  contentType: string;
}

/** 201 of POST /media: PUT the bytes at `uploadUrl` with Content-Type and this Content-Disposition. */
export class LegacyMintedMedia {
  @ApiProperty()
  uploadUrl: string;

  @ApiProperty({ example: 'inline; filename="avatar.png"' })
  contentDispositionHeader: string;

  @ApiProperty({ type: LegacyMediaSummary })
  media: LegacyMediaSummary;
}

/** GET /media/{media} (uploader only), and the answer of a legacy upload. */
export class LegacyMediaInfo {
  @ApiProperty({ example: MEDIA_ID_EXAMPLE })
  id: string;

  @ApiProperty()
  filename: string;

  @ApiProperty()
  contentType: string;

  @ApiProperty({ type: Number, nullable: true, description: 'bytes; null until uploaded' })
  size: number | null;

  @ApiProperty({ description: 'the permanent public URL (accepts w, h, fit, auto)' })
  url: string;

  @ApiProperty({ type: String, nullable: true })
  blurHash: string | null;

  @ApiProperty({ type: Number, nullable: true })
  width: number | null;

  @ApiProperty({ type: Number, nullable: true })
  height: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'null until the upload is ready' })
  publicDownloadUrl: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'null until the upload is ready' })
  canonicalUri: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}
