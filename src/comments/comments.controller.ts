import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Gated } from '../common/auth/access.decorators';
import { Principal } from '../common/auth/principal.decorator';
import { RequestPrincipal } from '../common/auth/request-authenticator';
import { CommentsService } from './comments.service';
import {
  CommentDeletion,
  CommentItem,
  CommentListing,
  CommentUpvoteState,
  CreatedComment,
} from './dto/comment-records.dto';
import { CommentsQuery, CreateCommentBody, UpdateCommentBody } from './dto/comment-requests.dto';
import { RateLimitClass } from '../infrastructure/rate-limit/rate-limit-class';

/**
 * Comments (api-spec.md "Credential-gated reads" and "Writes"): the listing takes `read:posts` or
 * an identity proof; writes take their write scope plus `read:posts` ("All twelve require the
 * write scope shown, plus read scope"), or an identity proof.
 */
@ApiTags('comments')
@Controller('v1/spaces/:space')
export class CommentsController {
  constructor(private readonly comments: CommentsService) {}

  @Get('posts/:postId/comments')
  @RateLimitClass('read')
  @Gated(['read:posts'], { spaceParam: 'space' })
  @ApiOperation({ summary: 'A page of a post’s comments: roots, or one root’s replies' })
  @ApiOkResponse({ type: CommentListing })
  listPostComments(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('postId') postId: string,
    @Query() query: CommentsQuery,
  ): Promise<CommentListing> {
    return this.comments.list(principal, space, postId, query);
  }

  @Post('posts/:postId/comments')
  @RateLimitClass('create')
  @Gated(['write:comments', 'read:posts'], { spaceParam: 'space' })
  @ApiOperation({ summary: 'Comment on a post, or reply to a comment' })
  @ApiCreatedResponse({ type: CreatedComment })
  createComment(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('postId') postId: string,
    @Body() body: CreateCommentBody,
  ): Promise<CreatedComment> {
    return this.comments.create(principal, space, postId, body);
  }

  @Patch('comments/:commentId')
  @RateLimitClass('create')
  @Gated(['write:comments', 'read:posts'], { spaceParam: 'space' })
  @ApiOperation({ summary: 'Edit one’s own comment: body, attachments or both, each replaced whole' })
  @ApiOkResponse({ type: CommentItem })
  updateComment(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('commentId') commentId: string,
    @Body() body: UpdateCommentBody,
  ): Promise<CommentItem> {
    return this.comments.update(principal, space, commentId, body);
  }

  @Delete('comments/:commentId')
  @RateLimitClass('create')
  @Gated(['write:comments', 'read:posts'], { spaceParam: 'space' })
  @ApiOperation({ summary: 'Delete one’s own comment (its replies stay)' })
  @ApiOkResponse({ type: CommentDeletion })
  deleteComment(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('commentId') commentId: string,
  ): Promise<CommentDeletion> {
    return this.comments.remove(principal, space, commentId);
  }

  @Put('comments/:commentId/upvote')
  @RateLimitClass('action')
  @HttpCode(200)
  @Gated(['write:upvotes', 'read:posts'], { spaceParam: 'space' })
  @ApiOperation({ summary: 'Upvote a comment (idempotent; always upvoted true)' })
  @ApiOkResponse({ type: CommentUpvoteState })
  upvoteComment(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('commentId') commentId: string,
  ): Promise<CommentUpvoteState> {
    return this.comments.setUpvote(principal, space, commentId, true);
  }

  @Delete('comments/:commentId/upvote')
  @RateLimitClass('action')
  @Gated(['write:upvotes', 'read:posts'], { spaceParam: 'space' })
  @ApiOperation({ summary: 'Withdraw an upvote (idempotent; always upvoted false)' })
  @ApiOkResponse({ type: CommentUpvoteState })
  withdrawCommentUpvote(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('commentId') commentId: string,
  ): Promise<CommentUpvoteState> {
    return this.comments.setUpvote(principal, space, commentId, false);
  }
}
