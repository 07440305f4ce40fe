import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Anonymous } from '../../common/auth/access.decorators';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { PublicPage, PublicPageListing } from '../dto/public-space-records.dto';
import { SpacePagesService } from '../services/space-pages.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

const SPACE_PARAM = { name: 'space', description: 'subdomain, space id or space DID' };
const HIDDEN = 'no such space, or no public profile (same bytes for everything hidden)';

/** The enabled pages of a space with a public profile (api-spec.md anonymous reads). */
@ApiTags('spaces')
@Controller('v1/spaces/:space/pages')
export class PublicSpacePagesController {
  constructor(private readonly pages: SpacePagesService) {}

  @Get()
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'The space’s enabled pages by sortOrder, then id' })
  @ApiParam(SPACE_PARAM)
  @ApiOkResponse({ type: PublicPageListing })
  @ApiNotFoundResponse({ description: HIDDEN })
  listPublicSpacePages(
    @Param('space') space: string,
    @Query() query: PaginationQueryDto,
  ): Promise<PublicPageListing> {
    return this.pages.listPublic(space, query);
  }

  @Get(':page')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'One enabled page, by page id or slug (same body)' })
  @ApiParam(SPACE_PARAM)
  @ApiParam({ name: 'page', description: 'page id or slug' })
  @ApiOkResponse({ type: PublicPage })
  @ApiNotFoundResponse({ description: HIDDEN })
  getPublicSpacePage(@Param('space') space: string, @Param('page') page: string): Promise<PublicPage> {
    return this.pages.getPublic(space, page);
  }
}
