import { Controller, Delete, HttpCode, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Gated } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { UpvoteResponse } from '../dto/post-records.dto';
import { PostUpvotesService } from '../services/post-upvotes.service';

/** The caller's upvote of a post (api-spec.md "Rules for writes" 7). */
@ApiTags('posts')
@Controller('v1/spaces/:space/posts/:post/upvote')
export class PostUpvotesController {
  constructor(private readonly upvotes: PostUpvotesService) {}

  @Put()
  @RateLimitClass('action')
  @HttpCode(200)
  @Gated(['write:upvotes', 'read:posts'], { spaceParam: 'space' })
  @ApiOperation({ summary: 'Upvotes a post (idempotent; always upvoted true)' })
  @ApiOkResponse({ type: UpvoteResponse })
  upvotePost(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('post') post: string,
  ): Promise<UpvoteResponse> {
    return this.upvotes.set(principal, space, post, true);
  }

  @Delete()
  @RateLimitClass('action')
  @Gated(['write:upvotes', 'read:posts'], { spaceParam: 'space' })
  @ApiOperation({ summary: 'Withdraws an upvote (idempotent; always upvoted false)' })
  @ApiOkResponse({ type: UpvoteResponse })
  withdrawPostUpvote(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('post') post: string,
  ): Promise<UpvoteResponse> {
    return this.upvotes.set(principal, space, post, false);
  }
}
