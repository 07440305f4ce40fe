import { Controller, Delete, HttpCode, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Gated } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { CommentsService } from '../services/comments.service';
import { CommentUpvoteState } from '../dto/comment-records.dto';

/** A comment's upvote by the caller (api-spec.md "Writes"; write:upvotes plus read:posts, or an identity proof). */
@ApiTags('comments')
@Controller('v1/spaces/:space/comments/:comment/upvote')
export class CommentUpvotesController {
  constructor(private readonly comments: CommentsService) {}

  @Put()
  @RateLimitClass('action')
  @HttpCode(200)
  @Gated(['write:upvotes', 'read:posts'], { spaceParam: 'space' })
  @ApiOperation({ summary: 'Upvote a comment (idempotent; always upvoted true)' })
  @ApiOkResponse({ type: CommentUpvoteState })
  upvoteComment(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('comment') commentId: string,
  ): Promise<CommentUpvoteState> {
    return this.comments.setUpvote(principal, space, commentId, true);
  }
  @Delete()
  @RateLimitClass('action')
  @Gated(['write:upvotes', 'read:posts'], { spaceParam: 'space' })
  @ApiOperation({ summary: 'Withdraw an upvote (idempotent; always upvoted false)' })
  @ApiOkResponse({ type: CommentUpvoteState })
  withdrawCommentUpvote(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('comment') commentId: string,
  ): Promise<CommentUpvoteState> {
    return this.comments.setUpvote(principal, space, commentId, false);
  }
}
