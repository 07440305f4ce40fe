import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Gated } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { CommentsService } from '../services/comments.service';
import { CommentListing, CreatedComment } from '../dto/comment-records.dto';
import { CommentsQuery, CreateCommentBody } from '../dto/comment-requests.dto';

/**
 * A post's comments (api-spec.md "Credential-gated reads" and "Writes"): the listing takes `read:posts` or
 * an identity proof; writes take their write scope plus `read:posts` ("All twelve require the
 * write scope shown, plus read scope"), or an identity proof.
 */
@ApiTags('comments')
@Controller('v1/spaces/:space/posts/:post/comments')
export class PostCommentsController {
  constructor(private readonly comments: CommentsService) {}

  @Get()
  @RateLimitClass('read')
  @Gated(['read:posts'], { spaceParam: 'space' })
  @ApiOperation({ summary: 'A page of a post’s comments: roots, or one root’s replies' })
  @ApiOkResponse({ type: CommentListing })
  listPostComments(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('post') postId: string,
    @Query() query: CommentsQuery,
  ): Promise<CommentListing> {
    return this.comments.list(principal, space, postId, query);
  }
  @Post()
  @RateLimitClass('create')
  @Gated(['write:comments', 'read:posts'], { spaceParam: 'space' })
  @ApiOperation({ summary: 'Comment on a post, or reply to a comment' })
  @ApiCreatedResponse({ type: CreatedComment })
  createComment(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('post') postId: string,
    @Body() body: CreateCommentBody,
  ): Promise<CreatedComment> {
    return this.comments.create(principal, space, postId, body);
  }
}
