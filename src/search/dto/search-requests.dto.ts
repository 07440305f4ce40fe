import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { SEARCH_LIMITS, SEARCH_TYPES } from '../domain/search-query';

const TYPES = `(${SEARCH_TYPES.join('|')})`;

/** The query of both search routes (docs/decisions/0181-search-query-and-ranking.md). */
export class SearchQuery extends PaginationQueryDto {
  @ApiProperty({
    description:
      'What to find, in web search syntax (`websearch_to_tsquery`): words (all required), "a phrase", ' +
      '`OR` (looser than the words around it: `a b OR c` finds a and b, or c), `-excluded`; words are ' +
      'compared whole, case and accents folded, without stemming. The last word, while typed and at ' +
      `least ${SEARCH_LIMITS.minPrefix} characters long, also matches as a prefix (alone in the query, ` +
      `only while fewer than ${SEARCH_LIMITS.exactFirst} of the reader's posts hold it as a whole word, whatever ` +
      '`types`). At most ' +
      `${SEARCH_LIMITS.maxLength} characters and ${SEARCH_LIMITS.maxTerms} words, at least one word not excluded.`,
    maxLength: SEARCH_LIMITS.maxLength,
    example: 'venue change',
  })
  @IsString({ message: 'q must be one string' })
  @IsNotEmpty({ message: 'q must not be empty' })
  @MaxLength(SEARCH_LIMITS.maxLength, { message: `q must be at most ${SEARCH_LIMITS.maxLength} characters` })
  q: string;

  @ApiPropertyOptional({
    description: `Comma-separated kinds to find among ${SEARCH_TYPES.join(', ')}; all by default.`,
    example: 'posts,comments',
  })
  @IsOptional()
  @IsString({ message: 'types must be one string' })
  @MaxLength(64, { message: 'types must list posts, comments, pages or events' })
  @Matches(new RegExp(`^${TYPES}(,${TYPES})*$`), {
    message: 'types must list posts, comments, pages or events',
  })
  types?: string;
}
