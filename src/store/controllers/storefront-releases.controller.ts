import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Anonymous } from '../../common/auth/access.decorators';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { StorefrontService } from '../services/storefront.service';
import { FullRelease, ReleaseCardListing } from '../dto/store-records.dto';

const SPACE_PARAM = { name: 'space', description: 'subdomain, space id or space DID' };
const HIDDEN = 'no such space or item, no public profile, or unpublished (same bytes for everything hidden)';

/** The anonymous release reads (design.md §13): published releases of spaces with a public profile. */
@ApiTags('store')
@Controller('v1/spaces/:space/releases')
export class StorefrontReleasesController {
  constructor(private readonly storefront: StorefrontService) {}

  @Get()
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'The space’s published releases, newest publishedAt first' })
  @ApiParam(SPACE_PARAM)
  @ApiOkResponse({ type: ReleaseCardListing })
  @ApiNotFoundResponse({ description: HIDDEN })
  listStoreReleases(
    @Param('space') space: string,
    @Query() query: PaginationQueryDto,
  ): Promise<ReleaseCardListing> {
    return this.storefront.listReleases(space, query);
  }
  @Get(':release')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'A published release with its credits and products' })
  @ApiParam(SPACE_PARAM)
  @ApiParam({ name: 'release', description: 'release id or slug, same body' })
  @ApiOkResponse({ type: FullRelease })
  @ApiNotFoundResponse({ description: HIDDEN })
  getStoreRelease(@Param('space') space: string, @Param('release') release: string): Promise<FullRelease> {
    return this.storefront.getRelease(space, release);
  }
}
