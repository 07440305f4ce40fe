import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Anonymous } from '../../common/auth/access.decorators';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { FullRelease, ProductCardListing, ProductPage, ReleaseCardListing } from '../dto/store-records.dto';
import { StorefrontService } from '../storefront.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

const SPACE_PARAM = { name: 'space', description: 'subdomain, space id or space DID' };
const HIDDEN = 'no such space or item, no public profile, or unpublished (same bytes for everything hidden)';

/** The anonymous store reads (design.md §13): published items of spaces with a public profile. */
@ApiTags('store')
@Controller('v1/spaces')
export class StorefrontController {
  constructor(private readonly storefront: StorefrontService) {}

  @Get(':space/products')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'The space’s published products by sortOrder, then id' })
  @ApiParam(SPACE_PARAM)
  @ApiOkResponse({ type: ProductCardListing })
  @ApiNotFoundResponse({ description: HIDDEN })
  listStoreProducts(
    @Param('space') space: string,
    @Query() query: PaginationQueryDto,
  ): Promise<ProductCardListing> {
    return this.storefront.listProducts(space, query);
  }

  @Get(':space/products/:slug')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'A published product’s purchase page' })
  @ApiParam(SPACE_PARAM)
  @ApiParam({ name: 'slug', description: 'the product’s slug (a mutable alias)' })
  @ApiOkResponse({ type: ProductPage })
  @ApiNotFoundResponse({ description: HIDDEN })
  getStoreProduct(@Param('space') space: string, @Param('slug') slug: string): Promise<ProductPage> {
    return this.storefront.getProduct(space, slug);
  }

  @Get(':space/releases')
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

  @Get(':space/releases/:release')
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
