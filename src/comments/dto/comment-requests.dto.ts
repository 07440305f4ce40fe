import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';

export const COMMENT_SORTS = ['newest', 'oldest', 'top'] as const;
export type CommentSort = (typeof COMMENT_SORTS)[number];

/** The longest comment body accepted (characters). */
export const MAX_COMMENT_BODY = 20_000;
/** The most attachments a comment carries (as many as a post). */
export const MAX_COMMENT_ATTACHMENTS = 10;

export class CommentsQuery extends PaginationQueryDto {
  @ApiPropertyOptional({ description: 'list the replies of this root comment instead of the roots' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  parentCommentId?: string;

  @ApiPropertyOptional({ enum: COMMENT_SORTS, default: 'newest' })
  @IsOptional()
  @IsIn(COMMENT_SORTS, { message: 'sort must be one of newest, oldest, top' })
  sort?: CommentSort;
}

const NOT_BLANK = /\S/;

export class CreateCommentBody {
  @ApiPropertyOptional({ maxLength: MAX_COMMENT_BODY, description: 'markdown; no inline images' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_COMMENT_BODY)
  @Matches(NOT_BLANK, { message: 'body must not be blank' })
  body?: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_COMMENT_ATTACHMENTS,
    uniqueItems: true,
    description: 'ordered media ids',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_COMMENT_ATTACHMENTS)
  @ArrayUnique({ message: 'attachments must not repeat a media id' })
  @IsString({ each: true })
  attachments?: string[];

  @ApiPropertyOptional({ description: 'reply to this comment (a reply to a reply attaches to its root)' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  parentCommentId?: string;
}

export class UpdateCommentBody {
  @ApiPropertyOptional({ maxLength: MAX_COMMENT_BODY, description: 'replaces the body' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_COMMENT_BODY)
  @Matches(NOT_BLANK, { message: 'body must not be blank' })
  body?: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_COMMENT_ATTACHMENTS,
    uniqueItems: true,
    description: 'replaces the attachments; an empty array clears them (null is refused)',
  })
  @ValidateIf((_body: object, value: unknown) => value !== undefined)
  @IsArray()
  @ArrayMaxSize(MAX_COMMENT_ATTACHMENTS)
  @ArrayUnique({ message: 'attachments must not repeat a media id' })
  @IsString({ each: true })
  attachments?: string[];
}
