import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class SpaceImportRecord {
  @ApiProperty({ example: 'import_0196f0a2c4d87e3f9b1a5c6d7e8f9012' })
  id: string;

  @ApiProperty({ enum: ['queued', 'running', 'done', 'failed'] })
  state: string;

  @ApiPropertyOptional({
    example: 'space_0196f0a2c4d87e3f9b1a5c6d7e8f9012',
    description: 'the new space, once the import is done',
  })
  spaceId?: string;

  @ApiPropertyOptional({
    example: 'topics.json does not match its schema: /0/name must be string',
    description: 'why the import failed: nothing of it was stored',
  })
  failure?: string;

  @ApiProperty({ example: '2026-03-01T12:00:00.000Z' })
  createdAt: string;

  @ApiProperty({ example: '2026-03-01T12:00:00.000Z' })
  updatedAt: string;

  @ApiProperty({ type: String, nullable: true, example: '2026-03-01T12:00:05.000Z' })
  finishedAt: string | null;
}
