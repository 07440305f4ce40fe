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
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { ProductAdminRecord } from '../dto/store-records.dto';
import { ProductRequest } from '../dto/store-requests.dto';
import { ProductsService } from '../services/products.service';

/**
 * Product administration (design.md §9, §13). Admins of the space; a non-admin member gets 403, a
 * non-member of a space without a public profile the one 404.
 */
@ApiTags('store (administration)')
@Controller('spaces/:space/products')
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Post()
  @RateLimitClass('ordinary')
  @HttpCode(201)
  @IdentityProof()
  @ApiOperation({ summary: 'Create a product with its prices' })
  @ApiCreatedResponse({ type: ProductAdminRecord })
  createStoreProduct(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Body() body: ProductRequest,
  ): Promise<ProductAdminRecord> {
    return this.products.create(principal, space, body);
  }
  @Put(':product')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Change a product; its prices are replaced by the list sent' })
  @ApiOkResponse({ type: ProductAdminRecord })
  updateStoreProduct(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('product') productId: string,
    @Body() body: ProductRequest,
  ): Promise<ProductAdminRecord> {
    return this.products.update(principal, space, productId, body);
  }
  @Delete(':product')
  @RateLimitClass('ordinary')
  @HttpCode(204)
  @IdentityProof()
  @ApiOperation({ summary: 'Delete a product (frees its slug; leaves releases and event tickets)' })
  @ApiNoContentResponse()
  deleteStoreProduct(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('product') productId: string,
  ): Promise<void> {
    return this.products.remove(principal, space, productId);
  }
}
