import { ApiProperty } from '@nestjs/swagger';
import { PageEnvelope } from '../../common/pagination/page-envelope.dto';

export class ExportRecord {
  @ApiProperty({ example: 'export_0196f0a2c4d87e3f9b1a5c6d7e8f9012' })
  id: string;

  @ApiProperty({ example: '2026-03-01T12:00:00.000Z' })
  createdAt: string;
}

export class ExportListing extends PageEnvelope {
  @ApiProperty({ type: [ExportRecord] })
  items: ExportRecord[];
}
