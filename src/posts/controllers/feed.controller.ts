import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Gated } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { FeedListing } from '../dto/post-records.dto';
import { FeedService } from '../services/feed.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

/** The granting person's feed across their spaces (api-spec.md "Credential-gated reads"). */
@ApiTags('posts')
@Controller('v1/feed')
export class FeedController {
  constructor(private readonly feed: FeedService) {}

  @Get()
  @RateLimitClass('read')
  @Gated(['read:posts'])
  @ApiOperation({ summary: 'Post cards newest first across the spaces the person is an active member of' })
  @ApiOkResponse({ type: FeedListing })
  listFeed(
    @Principal() principal: RequestPrincipal,
    @Query() query: PaginationQueryDto,
  ): Promise<FeedListing> {
    return this.feed.feed(principal, query);
  }
}
