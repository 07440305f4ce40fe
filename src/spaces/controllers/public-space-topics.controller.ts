import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Anonymous } from '../../common/auth/access.decorators';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { PublicTopic, PublicTopicListing } from '../dto/public-space-records.dto';
import { SpaceTopicsService } from '../services/space-topics.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

const SPACE_PARAM = { name: 'space', description: 'subdomain, space id or space DID' };
const HIDDEN = 'no such space, or no public profile (same bytes for everything hidden)';

/** The public topics of a space with a public profile (api-spec.md anonymous reads). */
@ApiTags('spaces')
@Controller('v1/spaces/:space/topics')
export class PublicSpaceTopicsController {
  constructor(private readonly topics: SpaceTopicsService) {}

  @Get()
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

  @Get(':topic')
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
}
