import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Anonymous } from '../../common/auth/access.decorators';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import {
  PublicPage,
  PublicPageListing,
  PublicSpace,
  PublicTopic,
  PublicTopicListing,
  SpaceCardListing,
} from '../dto/public-space-records.dto';
import { SpaceListingQuery } from '../dto/site-requests.dto';
import { PublicSpacesService } from '../public-spaces.service';
import { SpacePagesService } from '../space-pages.service';
import { SpaceTopicsService } from '../space-topics.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

const SPACE_PARAM = { name: 'space', description: 'subdomain, space id or space DID' };
const HIDDEN = 'no such space, or no public profile (same bytes for everything hidden)';

/** The anonymous space reads of api-spec.md: public profiles only, nothing private. */
@ApiTags('spaces')
@Controller('v1/spaces')
export class PublicSpacesController {
  constructor(
    private readonly spaces: PublicSpacesService,
    private readonly topics: SpaceTopicsService,
    private readonly pages: SpacePagesService,
  ) {}

  @Get()
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'Spaces with a public profile, most recently active first' })
  @ApiOkResponse({ type: SpaceCardListing })
  listPublicSpaces(@Query() query: SpaceListingQuery): Promise<SpaceCardListing> {
    return this.spaces.list(query);
  }

  @Get(':space')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'A space’s public profile' })
  @ApiParam(SPACE_PARAM)
  @ApiOkResponse({ type: PublicSpace })
  @ApiNotFoundResponse({ description: HIDDEN })
  getPublicSpace(@Param('space') space: string): Promise<PublicSpace> {
    return this.spaces.get(space);
  }

  @Get(':space/topics')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'The space’s public topics by name, then id' })
  @ApiParam(SPACE_PARAM)
  @ApiOkResponse({ type: PublicTopicListing })
  @ApiNotFoundResponse({ description: HIDDEN })
  listPublicSpaceTopics(
    @Param('space') space: string,
    @Query() query: PaginationQueryDto,
  ): Promise<PublicTopicListing> {
    return this.topics.listPublic(space, query);
  }

  @Get(':space/topics/:topic')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'One public topic' })
  @ApiParam(SPACE_PARAM)
  @ApiParam({ name: 'topic', description: 'topic id' })
  @ApiOkResponse({ type: PublicTopic })
  @ApiNotFoundResponse({ description: HIDDEN })
  getPublicSpaceTopic(@Param('space') space: string, @Param('topic') topic: string): Promise<PublicTopic> {
    return this.topics.getPublic(space, topic);
  }

  @Get(':space/pages')
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

  @Get(':space/pages/:page')
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
