import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
} from 'class-validator';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { RRULE_MAX_LENGTH } from '../domain/recurrence/rrule-text';

export const EVENT_TYPES = ['attend', 'update'] as const;
export const EVENT_MODES = ['call', 'place', 'chat'] as const;
export const EVENT_VISIBILITIES = ['public', 'members', 'draft'] as const;
export const EVENT_LIMITS = {
  title: 200,
  description: 5000,
  location: 500,
  url: 2048,
  timeZone: 64,
  ticketProducts: 20,
} as const;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** ISO 8601 date-time with seconds optional, fraction optional, and a zone (Z or an offset). */
export const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const PRODUCT_ID = /^product_[0-9a-f]{32}$/;
const HTTP_URL = /^https?:\/\/[^\s]+$/i;

/**
 * `POST /spaces/{id}/events` and `PUT …/events/{eventId}` (design.md §9): the whole event. A PUT
 * replaces it: what is omitted takes its default. The shape rules across members (timed vs
 * all-day, order of start and end, the zone, the rule) are checked by the service.
 */
export class EventRequest {
  @ApiProperty({ minLength: 1, maxLength: EVENT_LIMITS.title })
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(EVENT_LIMITS.title)
  title: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: EVENT_LIMITS.description })
  @IsOptional()
  @IsString()
  @MaxLength(EVENT_LIMITS.description)
  description?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: EVENT_LIMITS.location })
  @IsOptional()
  @IsString()
  @MaxLength(EVENT_LIMITS.location)
  location?: string | null;

  @ApiProperty({ enum: EVENT_TYPES })
  @IsIn(EVENT_TYPES, { message: `type must be one of ${EVENT_TYPES.join(', ')}` })
  type: (typeof EVENT_TYPES)[number];

  @ApiPropertyOptional({ enum: EVENT_MODES, nullable: true, description: 'shown as null on an update event' })
  @IsOptional()
  @IsIn(EVENT_MODES, { message: `mode must be one of ${EVENT_MODES.join(', ')}` })
  mode?: (typeof EVENT_MODES)[number] | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: EVENT_LIMITS.url })
  @IsOptional()
  @IsString()
  @MaxLength(EVENT_LIMITS.url)
  @Matches(HTTP_URL, { message: 'url must be an http or https URL' })
  url?: string | null;

  @ApiProperty({ description: 'selects the time shape: startsAt/endsAt/timeZone, or startDate/endDate' })
  @IsBoolean()
  isAllDay: boolean;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: 'timed: the first start (required)',
  })
  @IsOptional()
  @IsString()
  @Matches(INSTANT, { message: 'startsAt must be an ISO 8601 date-time with a zone' })
  startsAt?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'timed: not before startsAt',
  })
  @IsOptional()
  @IsString()
  @Matches(INSTANT, { message: 'endsAt must be an ISO 8601 date-time with a zone' })
  endsAt?: string | null;

  @ApiPropertyOptional({ example: 'Europe/Berlin', description: 'timed: an IANA zone (required)' })
  @IsOptional()
  @IsString()
  @MaxLength(EVENT_LIMITS.timeZone)
  timeZone?: string | null;

  @ApiPropertyOptional({ example: '2026-07-10', description: 'all-day: the first date (required)' })
  @IsOptional()
  @IsString()
  @Matches(DATE, { message: 'startDate must be YYYY-MM-DD' })
  startDate?: string | null;

  @ApiPropertyOptional({
    example: '2026-07-12',
    nullable: true,
    description: 'all-day: exclusive, after startDate',
  })
  @IsOptional()
  @IsString()
  @Matches(DATE, { message: 'endDate must be YYYY-MM-DD' })
  endDate?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: RRULE_MAX_LENGTH,
    example: 'FREQ=WEEKLY;BYDAY=TH',
    description:
      'RFC 5545 RRULE value: FREQ (DAILY..YEARLY), INTERVAL, COUNT, UNTIL, BYDAY, BYMONTHDAY, BYMONTH, BYSETPOS, WKST',
  })
  @IsOptional()
  @IsString()
  @MaxLength(RRULE_MAX_LENGTH)
  rrule?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: "the event's cover: a ready image uploaded by the caller (media id); null for none",
  })
  @IsOptional()
  @IsString()
  coverId?: string | null;

  @ApiPropertyOptional({ default: false, description: 'shown as false on an update event' })
  @IsOptional()
  @IsBoolean()
  requiresTicket?: boolean;

  @ApiPropertyOptional({
    type: [String],
    maxItems: EVENT_LIMITS.ticketProducts,
    description: 'products of the space',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(EVENT_LIMITS.ticketProducts)
  @IsString({ each: true })
  @Matches(PRODUCT_ID, { each: true, message: 'ticketProductIds must be product ids' })
  ticketProductIds?: string[];

  @ApiProperty({ enum: EVENT_VISIBILITIES })
  @IsIn(EVENT_VISIBILITIES, { message: `visibility must be one of ${EVENT_VISIBILITIES.join(', ')}` })
  visibility: (typeof EVENT_VISIBILITIES)[number];
}

/** `PUT …/events/{eventId}/occurrences/{recurrenceId}`: one occurrence's cover or cancellation. */
export class OccurrenceOverrideRequest {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      "this occurrence's own cover: a ready image uploaded by the caller (media id); null: the event's",
  })
  @IsOptional()
  @IsString()
  coverId?: string | null;

  @ApiPropertyOptional({ description: 'a canceled occurrence is listed nowhere' })
  @IsOptional()
  @IsBoolean()
  canceled?: boolean;
}

const WINDOW_MESSAGE = (name: string) => `${name} must be an ISO 8601 date or date-time`;

/** `from`/`to` of the event listings (api-spec.md per-route rule 3) with the pagination input. */
export class EventWindowQuery extends PaginationQueryDto {
  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'default now' })
  @IsOptional()
  @IsString({ message: WINDOW_MESSAGE('from') })
  @MaxLength(40, { message: WINDOW_MESSAGE('from') })
  from?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: 'default 90 days after from; more than 366 days after from, or before it, becomes 366 days',
  })
  @IsOptional()
  @IsString({ message: WINDOW_MESSAGE('to') })
  @MaxLength(40, { message: WINDOW_MESSAGE('to') })
  to?: string;
}

/** `occ` of the single event: anything that is not a live occurrence falls back, never a 400. */
export class SingleEventQuery {
  @ApiPropertyOptional({ description: 'a recurrenceId exactly as a listing emitted it' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value : undefined))
  occ?: string;
}
