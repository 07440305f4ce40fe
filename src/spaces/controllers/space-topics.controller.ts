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
import { TopicAdminListing, TopicAdminRecord } from '../dto/public-space-records.dto';
import { TopicRequest } from '../dto/site-requests.dto';
import { SpaceTopicsService } from '../services/space-topics.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

/**
 * A space's topics as its admins manage them (design.md §9).
 * Admins of the space; a non-admin member gets 403, a non-member of a space without a public
 * profile the one 404.
 */
@ApiTags('spaces (administration)')
@Controller('spaces/:space/topics')
export class SpaceTopicsController {
  constructor(private readonly topics: SpaceTopicsService) {}

  @Get()
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'Every topic of the space, whatever its access (admins)' })
  @ApiOkResponse({ type: TopicAdminListing })
  listSpaceTopicsForAdmin(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Query() query: PaginationQueryDto,
  ): Promise<TopicAdminListing> {
    return this.topics.listForAdmin(principal, space, query);
  }

  @Post()
  @RateLimitClass('ordinary')
  @HttpCode(201)
  @IdentityProof()
  @ApiOperation({ summary: 'Create a topic' })
  @ApiCreatedResponse({ type: TopicAdminRecord })
  createSpaceTopic(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Body() body: TopicRequest,
  ): Promise<TopicAdminRecord> {
    return this.topics.create(principal, space, body);
  }

  @Put(':topic')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Change a topic’s name, description and access' })
  @ApiOkResponse({ type: TopicAdminRecord })
  updateSpaceTopic(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('topic') topic: string,
    @Body() body: TopicRequest,
  ): Promise<TopicAdminRecord> {
    return this.topics.update(principal, space, topic, body);
  }

  @Delete(':topic')
  @RateLimitClass('ordinary')
  @HttpCode(204)
  @IdentityProof()
  @ApiOperation({ summary: 'Delete a topic' })
  @ApiNoContentResponse()
  deleteSpaceTopic(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('topic') topic: string,
  ): Promise<void> {
    return this.topics.remove(principal, space, topic);
  }
}
