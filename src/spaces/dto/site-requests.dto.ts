import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  registerDecorator,
} from 'class-validator';
import { parseEntityId } from '../../common/ids/entity-id';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { ProfileLinkInput } from '../../common/dto/profile-link.dto';
import { Present } from './space-requests.dto';
import {
  EXTERNAL_DOMAIN_PATTERN,
  LISTING_JOIN_MODES,
  normalizeCategory,
  SITE_LIMITS,
  SITE_MODES,
  SiteMode,
  SLUG_PATTERN,
  TOPIC_ACCESS_TIERS,
  TopicAccessTier,
} from '../domain/space-rules';
import { NestedRecords } from '../../common/validation/nested-records';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const MEDIA_ID = /^media_[0-9a-f]{32}$/;
const MEDIA_ID_EXAMPLE = 'media_0190f1a2b3c4d5e6f708192a3b4c5d6e';

// ---------------------------------------------------------------------------------------------
// GET /v1/spaces

/**
 * `activeWithinDays` is never rejected (api-spec.md): a number (±Infinity included) is clamped later;
 * anything else (empty, not a number) means no filter. A repeated value counts by its first.
 */
const toActiveWithinDays = ({ value }: { value: unknown }) => {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  if (typeof first === 'number') return first;
  if (typeof first !== 'string' || first.trim() === '') return undefined;
  const number = Number(first.trim());
  return Number.isNaN(number) ? undefined : number;
};
const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

export class SpaceListingQuery extends PaginationQueryDto {
  @ApiPropertyOptional({ enum: LISTING_JOIN_MODES })
  @IsOptional()
  @IsIn(LISTING_JOIN_MODES, { message: `joinMode must be one of ${LISTING_JOIN_MODES.join(', ')}` })
  joinMode?: (typeof LISTING_JOIN_MODES)[number];

  @ApiPropertyOptional({
    type: Number,
    description:
      'only spaces active within this many days; clamped to 1..365 (fractions cut), never rejected; ' +
      'spaces with no recorded activity are never listed',
    example: 30,
  })
  @IsOptional()
  @Transform(toActiveWithinDays)
  @IsNumber({ allowNaN: false, allowInfinity: true }, { message: 'activeWithinDays must be a number' })
  activeWithinDays?: number;

  @ApiPropertyOptional({
    maxLength: 1024,
    description: 'trimmed, whitespace collapsed and lower-cased before comparison; empty filters nothing',
  })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  category?: string;

  @ApiPropertyOptional({
    type: Boolean,
    description: 'true: only opted-in spaces; false: only the others; omitted: both',
  })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'optedIn must be true or false' })
  optedIn?: boolean;
}

// ---------------------------------------------------------------------------------------------
// PUT /spaces/{id}/site

export class SiteRequest {
  @ApiPropertyOptional({ enum: SITE_MODES })
  @Present()
  @IsIn(SITE_MODES, { message: `siteMode must be one of ${SITE_MODES.join(', ')}` })
  siteMode?: SiteMode;

  @ApiPropertyOptional()
  @Present()
  @IsBoolean()
  subscribeEnabled?: boolean;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: SITE_LIMITS.category,
    description: 'stored trimmed, whitespace collapsed and lower-cased; null or blank clears it',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? normalizeCategory(value) : value,
  )
  @IsString()
  @MaxLength(SITE_LIMITS.category)
  category?: string | null;

  @ApiPropertyOptional({ type: [ProfileLinkInput], maxItems: SITE_LIMITS.links, description: 'in order' })
  @Present()
  @IsArray()
  @ArrayMaxSize(SITE_LIMITS.links)
  @NestedRecords(ProfileLinkInput)
  links?: ProfileLinkInput[];

  @ApiPropertyOptional()
  @Present()
  @IsBoolean()
  discoveryOptIn?: boolean;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: MEDIA_ID_EXAMPLE,
    description: 'null clears',
  })
  @IsOptional()
  @IsString()
  @Matches(MEDIA_ID, { message: 'headerId must be a media id' })
  headerId?: string | null;
}

// ---------------------------------------------------------------------------------------------
// topics

/** Readers of a topic limited to members of these groups. */
export class TopicGroupsAccess {
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: SITE_LIMITS.topicGroups,
    example: ['group_0190f1a2b3c4d5e6f708192a3b4c5d6e'],
  })
  groups: string[];
}

export type TopicAccessInput = TopicAccessTier | TopicGroupsAccess;

const ACCESS_FORMS = `${TOPIC_ACCESS_TIERS.join(', ')}, or {"groups": [groupId, ...]}`;

/** Why a value is not a topic access, or null when it is one. */
export function topicAccessProblem(value: unknown): string | null {
  if (typeof value === 'string') {
    return (TOPIC_ACCESS_TIERS as readonly string[]).includes(value)
      ? null
      : `access must be ${ACCESS_FORMS}`;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return `access must be ${ACCESS_FORMS}`;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== 'groups') return 'access as an object has exactly one member, groups';
  const groups = (value as { groups: unknown }).groups;
  if (!Array.isArray(groups) || groups.length < 1 || groups.length > SITE_LIMITS.topicGroups) {
    return `access.groups must list 1 to ${SITE_LIMITS.topicGroups} group ids`;
  }
  if (!groups.every((group) => parseEntityId('group', group) !== null)) {
    return 'access.groups must hold group ids (group_<32 hex>)';
  }
  if (new Set(groups).size !== groups.length) return 'access.groups must not repeat a group';
  return null;
}

function IsTopicAccess() {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isTopicAccess',
      target: object.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => topicAccessProblem(value) === null,
        defaultMessage: (args) => topicAccessProblem(args?.value) ?? 'invalid access',
      },
    });
}

@ApiExtraModels(TopicGroupsAccess)
export class TopicRequest {
  @ApiProperty({
    minLength: 1,
    maxLength: SITE_LIMITS.topicName,
    description: 'unique in the space, any case',
  })
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(SITE_LIMITS.topicName)
  name: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: SITE_LIMITS.topicDescription,
    description: 'null or blank clears it; omitted on PUT keeps it',
  })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(SITE_LIMITS.topicDescription)
  description?: string | null;

  @ApiProperty({
    oneOf: [{ type: 'string', enum: [...TOPIC_ACCESS_TIERS] }, { $ref: getSchemaPath(TopicGroupsAccess) }],
    description: 'who reads the topic’s posts: public, signedIn, members, or members of the groups',
  })
  @IsTopicAccess()
  access: TopicAccessInput;
}

// ---------------------------------------------------------------------------------------------
// pages

export class PageRequest {
  @ApiProperty({ minLength: 1, maxLength: SITE_LIMITS.pageTitle })
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(SITE_LIMITS.pageTitle)
  title: string;

  @ApiPropertyOptional({
    maxLength: SITE_LIMITS.pageSlug,
    pattern: SLUG_PATTERN.source,
    description: 'unique in the space; made from the title when a page is created without one, kept on PUT',
  })
  @Present()
  @IsString()
  @MaxLength(SITE_LIMITS.pageSlug)
  @Matches(SLUG_PATTERN, { message: 'slug must be lowercase letters and digits in hyphen-separated runs' })
  slug?: string;

  @ApiProperty({ maxLength: SITE_LIMITS.pageBody, description: 'markdown' })
  @IsString()
  @MaxLength(SITE_LIMITS.pageBody)
  body: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: MEDIA_ID_EXAMPLE,
    description: 'null clears',
  })
  @IsOptional()
  @IsString()
  @Matches(MEDIA_ID, { message: 'coverId must be a media id' })
  coverId?: string | null;

  @ApiPropertyOptional({ minimum: -SITE_LIMITS.sortOrder, maximum: SITE_LIMITS.sortOrder, default: 0 })
  @Present()
  @IsInt({
    message: `sortOrder must be an integer from -${SITE_LIMITS.sortOrder} to ${SITE_LIMITS.sortOrder}`,
  })
  @Min(-SITE_LIMITS.sortOrder)
  @Max(SITE_LIMITS.sortOrder)
  sortOrder?: number;

  @ApiPropertyOptional({ default: true, description: 'a disabled page is 404 publicly' })
  @Present()
  @IsBoolean()
  enabled?: boolean;
}

// ---------------------------------------------------------------------------------------------
// POST /spaces/{id}/domain-verification

export class DomainVerificationRequest {
  @ApiPropertyOptional({
    maxLength: SITE_LIMITS.externalDomain,
    example: 'makers.example.org',
    description: 'the external domain to check; omitted: the one submitted last',
  })
  @Present()
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim().toLowerCase() : value,
  )
  @IsString()
  @Matches(EXTERNAL_DOMAIN_PATTERN, { message: 'domain must be a public host name such as example.org' })
  domain?: string;
}
