import { Controller, Get, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CommentItem } from '../../comments';
import { Gated } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import type { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { PostCard } from '../../posts';
import { PublicPageItem } from '../../spaces';
import { SearchListing } from '../dto/search-records.dto';
import { SearchQuery } from '../dto/search-requests.dto';
import { SearchService } from '../services/search.service';

/** Search across the caller's spaces, gated like the feed (docs/decisions/0182-search-access-is-the-listings.md). */
@ApiTags('search')
@ApiExtraModels(PostCard, CommentItem, PublicPageItem)
@Controller('v1/search')
export class SearchController {
  constructor(private readonly search: SearchService) {}

  @Get()
  @RateLimitClass('read')
  @Gated(['read:posts'])
  @ApiOperation({
    summary:
      'Posts, comments, pages and events matching q across the spaces the person is an active member of, best first',
  })
  @ApiOkResponse({ type: SearchListing })
  searchAcrossSpaces(
    @Principal() principal: RequestPrincipal,
    @Query() query: SearchQuery,
  ): Promise<SearchListing> {
    return this.search.acrossSpaces(principal, query);
  }
}
