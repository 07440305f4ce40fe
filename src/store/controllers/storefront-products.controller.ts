import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Anonymous } from '../../common/auth/access.decorators';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { StorefrontService } from '../services/storefront.service';
import { ProductCardListing, ProductPage } from '../dto/store-records.dto';

const SPACE_PARAM = { name: 'space', description: 'subdomain, space id or space DID' };
const HIDDEN = 'no such space or item, no public profile, or unpublished (same bytes for everything hidden)';

/** The anonymous product reads (design.md §13): published products of spaces with a public profile. */
@ApiTags('store')
@Controller('v1/spaces/:space/products')
export class StorefrontProductsController {
  constructor(private readonly storefront: StorefrontService) {}

  @Get()
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
  @Get(':product')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'A published product’s purchase page' })
  @ApiParam(SPACE_PARAM)
  @ApiParam({ name: 'product', description: 'the product’s slug (a mutable alias)' })
  @ApiOkResponse({ type: ProductPage })
  @ApiNotFoundResponse({ description: HIDDEN })
  getStoreProduct(@Param('space') space: string, @Param('product') slug: string): Promise<ProductPage> {
    return this.storefront.getProduct(space, slug);
  }
}
