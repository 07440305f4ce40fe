import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  IsUrl,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { WEBHOOK_EVENT_TYPES } from '../domain/webhook-events';

/** Limits of a subscription (docs/decisions/0160-webhook-subscriptions.md). */
export const WEBHOOK_LIMITS = { url: 2048, description: 500 } as const;

const URL_RULE = { require_protocol: true, protocols: ['http', 'https'], require_tld: false };
const URL_MESSAGE = 'url must be an http or https URL';
const EVENTS_MESSAGE = `each value in events must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`;
/** Optional members where null means "none". */
const NotNull = () => ValidateIf((_object: object, value: unknown) => value !== undefined && value !== null);

export class CreateWebhookRequest {
  @ApiProperty({ example: 'https://hooks.example.com/plat', maxLength: WEBHOOK_LIMITS.url })
  @IsString()
  @MaxLength(WEBHOOK_LIMITS.url)
  @IsUrl(URL_RULE, { message: URL_MESSAGE })
  url: string;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true, example: ['post.created'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: EVENTS_MESSAGE })
  events: string[];

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: WEBHOOK_LIMITS.description })
  @IsOptional()
  @IsString()
  @MaxLength(WEBHOOK_LIMITS.description)
  description?: string | null;

  @ApiPropertyOptional({
    description:
      'deliver the member view, and the events of subjects only members see (members-only topics, joins, applications); required by member.* and application.* events',
  })
  @IsOptional()
  @IsBoolean()
  includeMembersOnly?: boolean;
}

export class UpdateWebhookRequest {
  @ApiPropertyOptional({ maxLength: WEBHOOK_LIMITS.url })
  @IsOptional()
  @IsString()
  @MaxLength(WEBHOOK_LIMITS.url)
  @IsUrl(URL_RULE, { message: URL_MESSAGE })
  url?: string;

  @ApiPropertyOptional({ enum: WEBHOOK_EVENT_TYPES, isArray: true })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: EVENTS_MESSAGE })
  events?: string[];

  @ApiPropertyOptional({ type: String, nullable: true, description: 'null clears it' })
  @NotNull()
  @IsString()
  @MaxLength(WEBHOOK_LIMITS.description)
  description?: string | null;

  @ApiPropertyOptional({
    description: 'true re-enables a disabled subscription (and clears its failure clock)',
  })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  includeMembersOnly?: boolean;
}
