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
import {
  DomainVerificationRecord,
  PageAdminListing,
  PageAdminRecord,
  TopicAdminListing,
  TopicAdminRecord,
} from '../dto/public-space-records.dto';
import { DomainVerificationRequest, PageRequest, SiteRequest, TopicRequest } from '../dto/site-requests.dto';
import { SpaceRecord } from '../dto/space-records.dto';
import { SpacePagesService } from '../space-pages.service';
import { SpaceSiteService } from '../space-site.service';
import { SpaceTopicsService } from '../space-topics.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

/**
 * Space administration (design.md §9): site settings, topics, pages and the external domain.
 * Admins of the space; a non-admin member gets 403, a non-member of a space without a public
 * profile the one 404.
 */
@ApiTags('spaces (administration)')
@Controller('spaces')
export class SpaceSiteController {
  constructor(
    private readonly site: SpaceSiteService,
    private readonly topics: SpaceTopicsService,
    private readonly pages: SpacePagesService,
  ) {}

  @Put(':id/site')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Change site settings: mode, subscribe form, category, links, discovery, header' })
  @ApiOkResponse({ type: SpaceRecord })
  updateSpaceSite(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Body() body: SiteRequest,
  ): Promise<SpaceRecord> {
    return this.site.updateSite(principal, id, body);
  }

  @Post(':id/domain-verification')
  @RateLimitClass('ordinary')
  @HttpCode(200)
  @IdentityProof()
  @ApiOperation({ summary: 'Check https://<domain>/.well-known/plat-did for the space’s DID' })
  @ApiOkResponse({ type: DomainVerificationRecord })
  verifySpaceDomain(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Body() body: DomainVerificationRequest,
  ): Promise<DomainVerificationRecord> {
    return this.site.verifyDomain(principal, id, body);
  }

  @Get(':id/topics')
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'Every topic of the space, whatever its access (admins)' })
  @ApiOkResponse({ type: TopicAdminListing })
  listSpaceTopicsForAdmin(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Query() query: PaginationQueryDto,
  ): Promise<TopicAdminListing> {
    return this.topics.listForAdmin(principal, id, query);
  }

  @Post(':id/topics')
  @RateLimitClass('ordinary')
  @HttpCode(201)
  @IdentityProof()
  @ApiOperation({ summary: 'Create a topic' })
  @ApiCreatedResponse({ type: TopicAdminRecord })
  createSpaceTopic(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Body() body: TopicRequest,
  ): Promise<TopicAdminRecord> {
    return this.topics.create(principal, id, body);
  }

  @Put(':id/topics/:topicId')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Change a topic’s name, description and access' })
  @ApiOkResponse({ type: TopicAdminRecord })
  updateSpaceTopic(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Param('topicId') topicId: string,
    @Body() body: TopicRequest,
  ): Promise<TopicAdminRecord> {
    return this.topics.update(principal, id, topicId, body);
  }

  @Delete(':id/topics/:topicId')
  @RateLimitClass('ordinary')
  @HttpCode(204)
  @IdentityProof()
  @ApiOperation({ summary: 'Delete a topic' })
  @ApiNoContentResponse()
  deleteSpaceTopic(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Param('topicId') topicId: string,
  ): Promise<void> {
    return this.topics.remove(principal, id, topicId);
  }

  @Get(':id/pages')
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'Every page of the space, disabled ones included (admins)' })
  @ApiOkResponse({ type: PageAdminListing })
  listSpacePagesForAdmin(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Query() query: PaginationQueryDto,
  ): Promise<PageAdminListing> {
    return this.pages.listForAdmin(principal, id, query);
  }

  @Post(':id/pages')
  @RateLimitClass('ordinary')
  @HttpCode(201)
  @IdentityProof()
  @ApiOperation({ summary: 'Create a page' })
  @ApiCreatedResponse({ type: PageAdminRecord })
  createSpacePage(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Body() body: PageRequest,
  ): Promise<PageAdminRecord> {
    return this.pages.create(principal, id, body);
  }

  @Put(':id/pages/:pageId')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Change a page' })
  @ApiOkResponse({ type: PageAdminRecord })
  updateSpacePage(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Param('pageId') pageId: string,
    @Body() body: PageRequest,
  ): Promise<PageAdminRecord> {
    return this.pages.update(principal, id, pageId, body);
  }

  @Delete(':id/pages/:pageId')
  @RateLimitClass('ordinary')
  @HttpCode(204)
  @IdentityProof()
  @ApiOperation({ summary: 'Delete a page' })
  @ApiNoContentResponse()
  deleteSpacePage(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Param('pageId') pageId: string,
  ): Promise<void> {
    return this.pages.remove(principal, id, pageId);
  }
}
