import { Body, Controller, Delete, Param, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Gated } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { CommentsService } from '../services/comments.service';
import { CommentDeletion, CommentItem } from '../dto/comment-records.dto';
import { UpdateCommentBody } from '../dto/comment-requests.dto';

/** One's own comments: edit and delete (api-spec.md "Writes"; write:comments plus read:posts, or an identity proof). */
@ApiTags('comments')
@Controller('v1/spaces/:space/comments')
export class CommentsController {
  constructor(private readonly comments: CommentsService) {}

  @Patch(':comment')
  @RateLimitClass('create')
  @Gated(['write:comments', 'read:posts'], { spaceParam: 'space' })
  @ApiOperation({ summary: 'Edit one’s own comment: body, attachments or both, each replaced whole' })
  @ApiOkResponse({ type: CommentItem })
  updateComment(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('comment') commentId: string,
    @Body() body: UpdateCommentBody,
  ): Promise<CommentItem> {
    return this.comments.update(principal, space, commentId, body);
  }
  @Delete(':comment')
  @RateLimitClass('create')
  @Gated(['write:comments', 'read:posts'], { spaceParam: 'space' })
  @ApiOperation({ summary: 'Delete one’s own comment (its replies stay)' })
  @ApiOkResponse({ type: CommentDeletion })
  deleteComment(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('comment') commentId: string,
  ): Promise<CommentDeletion> {
    return this.comments.remove(principal, space, commentId);
  }
}
