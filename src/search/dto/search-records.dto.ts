import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { CommentItem } from '../../comments';
import { PageEnvelope } from '../../common/pagination/page-envelope.dto';
import { PostCard } from '../../posts';
import { PublicPageItem } from '../../spaces';
import type { HitType } from '../domain/search-backend';

/** Where a matched term sits in the highlight's text. */
export class SearchMatch {
  @ApiProperty({ description: 'Offset of the first character, in UTF-16 code units', example: 12 })
  start: number;

  @ApiProperty({ description: 'Offset past the last character, in UTF-16 code units', example: 17 })
  end: number;
}

/** The matched passage: plain text (never HTML: render it as text) and where its terms are. */
export class SearchHighlight {
  @ApiProperty({ example: 'The venue changed to the old mill' })
  text: string;

  @ApiProperty({ type: [SearchMatch] })
  matches: SearchMatch[];
}

/** One result: its kind, the item as its listing shows it, and the passage that matched. */
export class SearchResult {
  @ApiProperty({ enum: ['post', 'comment', 'page', 'event'] })
  type: HitType;

  @ApiProperty({
    description:
      'The item in its listing shape: a post card, a comment, a page list item or an event occurrence',
    oneOf: [
      { $ref: getSchemaPath(PostCard) },
      { $ref: getSchemaPath(CommentItem) },
      { $ref: getSchemaPath(PublicPageItem) },
      // The events module's schema (its routes register it; its dto is not importable here).
      { $ref: getSchemaPath('EventOccurrenceRecord') },
    ],
  })
  item: PostCard | CommentItem | PublicPageItem | object;

  @ApiProperty({ type: SearchHighlight })
  highlight: SearchHighlight;
}

/**
 * A page of results, best first: the last day's, then the last 30 days', then older ones, each by
 * relevance blended with recency (docs/decisions/0185-bounded-search-work.md).
 */
export class SearchListing extends PageEnvelope {
  @ApiProperty({ type: [SearchResult] })
  items: SearchResult[];
}
