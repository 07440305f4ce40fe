import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Gated, OptionalAuth } from '../../common/auth/access.decorators';
import { OptionalPrincipal, Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import {
  DeletedPostResponse,
  FullPost,
  POST_RESPONSE_SCHEMA,
  PostListing,
  PostResponse,
  UpvoteResponse,
} from '../dto/post-records.dto';
import { CreatePostRequest, PostListingQuery, UpdatePostRequest } from '../dto/post-requests.dto';
import { PostUpvotesService } from '../post-upvotes.service';
import { PostsService } from '../posts.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

/** The posts of a space: optional-auth reads, the author's writes, upvotes (api-spec.md). */
@ApiTags('posts')
@Controller('v1/spaces/:space/posts')
export class PostsController {
  constructor(
    private readonly posts: PostsService,
    private readonly upvotes: PostUpvotesService,
  ) {}

  @Get()
  @RateLimitClass('read')
  @OptionalAuth('read:posts')
  @ApiOperation({
    summary: 'Post cards of the space, newest first by default (public projection or member view)',
  })
  @ApiOkResponse({ type: PostListing })
  listSpacePosts(
    @OptionalPrincipal() principal: RequestPrincipal | null,
    @Param('space') space: string,
    @Query() query: PostListingQuery,
  ): Promise<PostListing> {
    return this.posts.list(principal, space, query);
  }

  @Get(':postId')
  @RateLimitClass('read')
  @OptionalAuth('read:posts')
  @ApiOperation({ summary: 'One post: eligible with the full post, or gated with a reason' })
  @ApiOkResponse({ schema: POST_RESPONSE_SCHEMA })
  getSpacePost(
    @OptionalPrincipal() principal: RequestPrincipal | null,
    @Param('space') space: string,
    @Param('postId') postId: string,
  ): Promise<PostResponse> {
    return this.posts.get(principal, space, postId);
  }

  @Post()
  @RateLimitClass('create')
  @Gated(['write:posts', 'read:posts'], { spaceParam: 'space' })
  @ApiOperation({ summary: 'Publishes a post in a topic the author can post in' })
  @ApiCreatedResponse({ type: FullPost })
  createPost(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Body() body: CreatePostRequest,
  ): Promise<FullPost> {
    return this.posts.create(principal, space, body);
  }

  @Patch(':postId')
  @RateLimitClass('create')
  @Gated(['write:posts', 'read:posts'], { spaceParam: 'space' })
  @ApiOperation({
    summary: 'Changes the caller’s own post (at least one of title, body, topic, attachments)',
  })
  @ApiOkResponse({ type: FullPost })
  updatePost(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('postId') postId: string,
    @Body() body: UpdatePostRequest,
  ): Promise<FullPost> {
    return this.posts.update(principal, space, postId, body);
  }

  @Delete(':postId')
  @RateLimitClass('create')
  @Gated(['write:posts', 'read:posts'], { spaceParam: 'space' })
  @ApiOperation({ summary: 'Deletes the caller’s own post' })
  @ApiOkResponse({ type: DeletedPostResponse })
  deletePost(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('postId') postId: string,
  ): Promise<DeletedPostResponse> {
    return this.posts.remove(principal, space, postId);
  }

  @Put(':postId/upvote')
  @RateLimitClass('action')
  @HttpCode(200)
  @Gated(['write:upvotes', 'read:posts'], { spaceParam: 'space' })
  @ApiOperation({ summary: 'Upvotes a post (idempotent; always upvoted true)' })
  @ApiOkResponse({ type: UpvoteResponse })
  upvotePost(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('postId') postId: string,
  ): Promise<UpvoteResponse> {
    return this.upvotes.set(principal, space, postId, true);
  }

  @Delete(':postId/upvote')
  @RateLimitClass('action')
  @Gated(['write:upvotes', 'read:posts'], { spaceParam: 'space' })
  @ApiOperation({ summary: 'Withdraws an upvote (idempotent; always upvoted false)' })
  @ApiOkResponse({ type: UpvoteResponse })
  withdrawPostUpvote(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('postId') postId: string,
  ): Promise<UpvoteResponse> {
    return this.upvotes.set(principal, space, postId, false);
  }
}
