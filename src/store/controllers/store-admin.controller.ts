import { Body, Controller, Delete, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { ProductAdminRecord, ReleaseAdminRecord } from '../dto/store-records.dto';
import { ProductRequest, ReleaseRequest } from '../dto/store-requests.dto';
import { ProductsService } from '../products.service';
import { ReleasesService } from '../releases.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

/**
 * Store administration (design.md §9, §13): products and releases. Admins of the space; a
 * non-admin member gets 403, a non-member of a space without a public profile the one 404.
 */
@ApiTags('store (administration)')
@Controller('spaces')
export class StoreAdminController {
  constructor(
    private readonly products: ProductsService,
    private readonly releases: ReleasesService,
  ) {}

  @Post(':id/products')
  @RateLimitClass('ordinary')
  @HttpCode(201)
  @IdentityProof()
  @ApiOperation({ summary: 'Create a product with its prices' })
  @ApiCreatedResponse({ type: ProductAdminRecord })
  createStoreProduct(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Body() body: ProductRequest,
  ): Promise<ProductAdminRecord> {
    return this.products.create(principal, id, body);
  }

  @Put(':id/products/:productId')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Change a product; its prices are replaced by the list sent' })
  @ApiOkResponse({ type: ProductAdminRecord })
  updateStoreProduct(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Param('productId') productId: string,
    @Body() body: ProductRequest,
  ): Promise<ProductAdminRecord> {
    return this.products.update(principal, id, productId, body);
  }

  @Delete(':id/products/:productId')
  @RateLimitClass('ordinary')
  @HttpCode(204)
  @IdentityProof()
  @ApiOperation({ summary: 'Delete a product (frees its slug; leaves releases and event tickets)' })
  @ApiNoContentResponse()
  deleteStoreProduct(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Param('productId') productId: string,
  ): Promise<void> {
    return this.products.remove(principal, id, productId);
  }

  @Post(':id/releases')
  @RateLimitClass('ordinary')
  @HttpCode(201)
  @IdentityProof()
  @ApiOperation({ summary: 'Create a release' })
  @ApiCreatedResponse({ type: ReleaseAdminRecord })
  createStoreRelease(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Body() body: ReleaseRequest,
  ): Promise<ReleaseAdminRecord> {
    return this.releases.create(principal, id, body);
  }

  @Put(':id/releases/:releaseId')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Change a release' })
  @ApiOkResponse({ type: ReleaseAdminRecord })
  updateStoreRelease(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Param('releaseId') releaseId: string,
    @Body() body: ReleaseRequest,
  ): Promise<ReleaseAdminRecord> {
    return this.releases.update(principal, id, releaseId, body);
  }

  @Delete(':id/releases/:releaseId')
  @RateLimitClass('ordinary')
  @HttpCode(204)
  @IdentityProof()
  @ApiOperation({ summary: 'Delete a release (frees its slug)' })
  @ApiNoContentResponse()
  deleteStoreRelease(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Param('releaseId') releaseId: string,
  ): Promise<void> {
    return this.releases.remove(principal, id, releaseId);
  }
}
