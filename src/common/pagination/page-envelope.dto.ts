import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The cursor members of the page envelope; each listing DTO adds its typed `items`. */
export abstract class PageEnvelope {
  @ApiProperty({ type: String, nullable: true, description: 'null when there are no more results forward' })
  nextCursor: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  previousCursor?: string | null;
}
