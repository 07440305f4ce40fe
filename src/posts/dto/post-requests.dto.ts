import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsISO8601,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';

export const POST_LIMITS = {
  title: 300,
  body: 100_000,
  attachments: 10,
  shortPostAttachments: 4,
} as const;

export const POST_FORMATS = ['short-post', 'long-post'] as const;
export const POST_SORTS = ['newest', 'oldest'] as const;

/** A title is trimmed; an empty or whitespace-only title means no title (a short post). */
const toTitle = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
};

const TOPIC_ID_EXAMPLE = 'topic_0190f1a2b3c4d5e6f708192a3b4c5d6e';
const MEDIA_ID_EXAMPLE = 'media_0190f1a2b3c4d5e6f708192a3b4c5d6e';

/** GET /v1/spaces/{space}/posts (api-spec.md "Anonymous reads" per-route rule 1). */
export class PostListingQuery extends PaginationQueryDto {
  @ApiPropertyOptional({ enum: POST_FORMATS })
  @IsOptional()
  @IsIn(POST_FORMATS, { message: `format must be one of ${POST_FORMATS.join(', ')}` })
  format?: (typeof POST_FORMATS)[number];

  @ApiPropertyOptional({
    example: TOPIC_ID_EXAMPLE,
    description: 'a topic id; an unknown, unreachable or foreign topic gives an empty page',
  })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  topic?: string;

  @ApiPropertyOptional({ enum: POST_SORTS, default: 'newest' })
  @IsOptional()
  @IsIn(POST_SORTS, { message: `sort must be one of ${POST_SORTS.join(', ')}` })
  sort?: (typeof POST_SORTS)[number];

  @ApiPropertyOptional({ format: 'date-time', description: 'only posts published strictly after' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'publishedAfter must be an ISO 8601 date-time' })
  publishedAfter?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'only posts published strictly before' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'publishedBefore must be an ISO 8601 date-time' })
  publishedBefore?: string;
}

/** POST /v1/spaces/{space}/posts. */
export class CreatePostRequest {
  @ApiProperty({ example: TOPIC_ID_EXAMPLE, description: 'a topic the author can post in' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  topic: string;

  @ApiProperty({ minLength: 1, maxLength: POST_LIMITS.body, description: 'markdown' })
  @IsString()
  @Matches(/\S/, { message: 'body must not be empty' })
  @MaxLength(POST_LIMITS.body)
  body: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: POST_LIMITS.title,
    description: 'makes the post a long-post; blank means no title',
  })
  @IsOptional()
  @Transform(toTitle)
  @IsString()
  @MaxLength(POST_LIMITS.title)
  title?: string | null;

  @ApiPropertyOptional({
    type: [String],
    maxItems: POST_LIMITS.attachments,
    uniqueItems: true,
    example: [MEDIA_ID_EXAMPLE],
    description: 'ordered media ids of the space; at most 4 on a short post',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(POST_LIMITS.attachments)
  @ArrayUnique({ message: 'attachments must not repeat a media id' })
  @IsString({ each: true })
  attachments?: string[];
}

/** Validates a member when it is present: null is refused (only `title` may be null). */
const WhenPresent = () => ValidateIf((_object: object, value: unknown) => value !== undefined);

/** PATCH /v1/spaces/{space}/posts/{postId}: at least one member; omitted members are untouched. */
export class UpdatePostRequest {
  @ApiPropertyOptional({ example: TOPIC_ID_EXAMPLE, description: 'moves the post within the space' })
  @WhenPresent()
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  topic?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: POST_LIMITS.body })
  @WhenPresent()
  @IsString()
  @Matches(/\S/, { message: 'body must not be empty' })
  @MaxLength(POST_LIMITS.body)
  body?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: POST_LIMITS.title,
    description: 'null or blank removes the title (a short post)',
  })
  @IsOptional()
  @Transform(toTitle)
  @IsString()
  @MaxLength(POST_LIMITS.title)
  title?: string | null;

  @ApiPropertyOptional({
    type: [String],
    maxItems: POST_LIMITS.attachments,
    uniqueItems: true,
    description: 'replaces the set; an empty array clears it',
  })
  @WhenPresent()
  @IsArray()
  @ArrayMaxSize(POST_LIMITS.attachments)
  @ArrayUnique({ message: 'attachments must not repeat a media id' })
  @IsString({ each: true })
  attachments?: string[];
}
