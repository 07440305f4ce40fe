import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageEnvelope } from '../../common/pagination/page-envelope.dto';

const STATES = ['queued', 'running', 'ready', 'failed', 'expired'];

/** A personal export (issue 35 item 3). */
export class ExportRecord {
  @ApiProperty({ example: 'export_0196f0a2c4d87e3f9b1a5c6d7e8f9012' })
  id: string;

  @ApiProperty({ enum: STATES, description: 'queued and running: being built; ready: `url` downloads it' })
  state: 'queued' | 'running' | 'ready' | 'failed' | 'expired';

  @ApiProperty({ example: '2026-03-01T12:00:00.000Z', format: 'date-time' })
  createdAt: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description:
      'when the archive is deleted (ready and expired exports): EXPORT_RETENTION_DAYS after it was ready',
  })
  expiresAt?: string;

  @ApiPropertyOptional({
    description:
      'ready only: a signed URL of the zip archive, valid EXPORT_URL_TTL_SECONDS (never past expiresAt); ' +
      'read the export again for a fresh one',
  })
  url?: string;
}

export class ExportListing extends PageEnvelope {
  @ApiProperty({ type: [ExportRecord] })
  items: ExportRecord[];
}
