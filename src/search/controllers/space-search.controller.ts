import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CommentItem } from '../../comments';
import { OptionalAuth } from '../../common/auth/access.decorators';
import { OptionalPrincipal } from '../../common/auth/principal.decorator';
import type { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { PostCard } from '../../posts';
import { PublicPageItem } from '../../spaces';
import { SearchListing } from '../dto/search-records.dto';
import { SearchQuery } from '../dto/search-requests.dto';
import { SearchService } from '../services/search.service';

/** Search within one space, read as its posts listing reads the caller (docs/decisions/0182-search-access-is-the-listings.md). */
@ApiTags('search')
@ApiExtraModels(PostCard, CommentItem, PublicPageItem)
@Controller('v1/spaces/:space/search')
export class SpaceSearchController {
  constructor(private readonly search: SearchService) {}

  @Get()
  @RateLimitClass('read')
  @OptionalAuth('read:posts')
  @ApiOperation({
    summary:
      'Posts, comments, pages and events of the space matching q, best first (public projection or member view)',
  })
  @ApiOkResponse({ type: SearchListing })
  searchSpace(
    @OptionalPrincipal() principal: RequestPrincipal | null,
    @Param('space') space: string,
    @Query() query: SearchQuery,
  ): Promise<SearchListing> {
    return this.search.inSpace(principal, space, query);
  }
}
