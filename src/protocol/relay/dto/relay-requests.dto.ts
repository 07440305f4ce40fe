import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsOptional, IsString, MaxLength } from 'class-validator';
import { MAX_INGEST_BATCH } from '../services/relay-ingest.service';

/** `POST /proof/v1/operations`: exactly `{operations}` (WEB-RELAY.md "Operation Ingestion"). */
export class IngestOperationsRequest {
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: MAX_INGEST_BATCH,
    description: 'compact JWS tokens: identity ops, content ops, revocations, public credentials',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_INGEST_BATCH, { message: `a batch holds at most ${MAX_INGEST_BATCH} operations` })
  @IsString({ each: true })
  operations: string[];
}

const CURSOR = 'cursor from a previous page’s `next`, passed back verbatim';
const LIMIT = 'page size: default 100, at most 1000 (larger values are clamped)';

/** `after` + `limit` of every relay list route. */
export class RelayPageQuery {
  @ApiPropertyOptional({ description: CURSOR })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  after?: string;

  @ApiPropertyOptional({ description: LIMIT, type: 'integer' })
  @IsOptional()
  @IsString()
  @MaxLength(16)
  limit?: string;
}

export class RelayIndexIdentitiesQuery extends RelayPageQuery {
  @ApiPropertyOptional({ description: 'exact DID' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  did?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'] })
  @IsOptional()
  @IsString()
  @MaxLength(16)
  hasPublicProfile?: string;

  @ApiPropertyOptional({ description: 'case-insensitive substring of the projected profile name' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  nameContains?: string;

  @ApiPropertyOptional({ enum: ['genesisAt.desc', 'headAt.desc'] })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  order?: string;
}

export class RelayIndexContentQuery extends RelayPageQuery {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(256)
  contentId?: string;

  @ApiPropertyOptional({ description: 'exact DID of the chain creator' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  creator?: string;

  @ApiPropertyOptional({ description: 'exact DID that signed at least one accepted operation' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  signer?: string;

  @ApiPropertyOptional({ description: '`$schema` of the held head document' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  docSchema?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(256)
  documentCID?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'] })
  @IsOptional()
  @IsString()
  @MaxLength(16)
  publicRead?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'] })
  @IsOptional()
  @IsString()
  @MaxLength(16)
  isDeleted?: string;

  @ApiPropertyOptional({
    description: 'case-insensitive substring of the projected title (public rows only)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  titleContains?: string;

  @ApiPropertyOptional({ enum: ['genesisAt.desc', 'headAt.desc'] })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  order?: string;
}
