import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export const MEDIA_ID_EXAMPLE = 'media_0190f1a2b3c4d5e6f708192a3b4c5d6e';

/** api-spec.md "Media object". Optional members are absent, never null. */
export class MediaObject {
  @ApiProperty({ example: MEDIA_ID_EXAMPLE, description: 'the id `attachment://<id>` body tokens name' })
  id: string;

  @ApiProperty()
  filename: string;

  @ApiProperty({
    description: 'permanent unsigned CDN URL for images; time-limited signed URL for audio, video and files',
  })
  url: string;

  @ApiProperty({ example: 'image/png' })
  contentType: string;

  @ApiPropertyOptional({ minimum: 0, description: 'bytes; absent until the upload is finalized' })
  contentLength?: number;

  @ApiPropertyOptional({ minimum: 1, description: 'pixels (images, video)' })
  width?: number;

  @ApiPropertyOptional({ minimum: 1, description: 'pixels (images, video)' })
  height?: number;

  @ApiPropertyOptional()
  blurHash?: string;

  @ApiPropertyOptional({ description: 'uploader caption' })
  alt?: string;

  @ApiPropertyOptional({ minimum: 0, description: 'audio, video' })
  durationMs?: number;

  @ApiPropertyOptional({ description: 'audio cover art or video frame' })
  posterUrl?: string;

  @ApiPropertyOptional({ description: 'streamable MP4; signed like url' })
  playbackUrl?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'present if and only if url (and playbackUrl, posterUrl) are signed',
  })
  urlExpiresAt?: string;

  @ApiPropertyOptional({
    type: [Number],
    maxItems: 200,
    description: 'audio: at most 200 integers 0..100',
  })
  waveformPeaks?: number[];
}
