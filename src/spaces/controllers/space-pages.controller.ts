import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
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
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { PageAdminListing, PageAdminRecord } from '../dto/public-space-records.dto';
import { PageRequest } from '../dto/site-requests.dto';
import { SpacePagesService } from '../services/space-pages.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

/**
 * A space's site pages as its admins manage them (design.md §9).
 * Admins of the space; a non-admin member gets 403, a non-member of a space without a public
 * profile the one 404.
 */
@ApiTags('spaces (administration)')
@Controller('spaces/:space/pages')
export class SpacePagesController {
  constructor(private readonly pages: SpacePagesService) {}

  @Get()
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'Every page of the space, disabled ones included (admins)' })
  @ApiOkResponse({ type: PageAdminListing })
  listSpacePagesForAdmin(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Query() query: PaginationQueryDto,
  ): Promise<PageAdminListing> {
    return this.pages.listForAdmin(principal, space, query);
  }

  @Post()
  @RateLimitClass('ordinary')
  @HttpCode(201)
  @IdentityProof()
  @ApiOperation({ summary: 'Create a page' })
  @ApiCreatedResponse({ type: PageAdminRecord })
  createSpacePage(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Body() body: PageRequest,
  ): Promise<PageAdminRecord> {
    return this.pages.create(principal, space, body);
  }

  @Put(':page')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Change a page' })
  @ApiOkResponse({ type: PageAdminRecord })
  updateSpacePage(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('page') page: string,
    @Body() body: PageRequest,
  ): Promise<PageAdminRecord> {
    return this.pages.update(principal, space, page, body);
  }

  @Delete(':page')
  @RateLimitClass('ordinary')
  @HttpCode(204)
  @IdentityProof()
  @ApiOperation({ summary: 'Delete a page' })
  @ApiNoContentResponse()
  deleteSpacePage(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('page') page: string,
  ): Promise<void> {
    return this.pages.remove(principal, space, page);
  }
}
