import { Controller, Delete, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { PostCard } from '../dto/post-records.dto';
import { PostPinsService } from '../services/post-pins.service';

/**
 * Post pins (design.md §9). Admins of the space; a non-admin member gets 403, a non-member of a
 * space without a public profile the one 404.
 */
@ApiTags('spaces (administration)')
@Controller('spaces/:space/posts/:post/pin')
export class PostPinsController {
  constructor(private readonly pins: PostPinsService) {}

  @Put()
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Pin a post of the space (listings stay by recency; clients hoist)' })
  @ApiOkResponse({ type: PostCard })
  pinSpacePost(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('post') post: string,
  ): Promise<PostCard> {
    return this.pins.set(principal, space, post, true);
  }

  @Delete()
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Unpin a post of the space' })
  @ApiOkResponse({ type: PostCard })
  unpinSpacePost(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('post') post: string,
  ): Promise<PostCard> {
    return this.pins.set(principal, space, post, false);
  }
}
