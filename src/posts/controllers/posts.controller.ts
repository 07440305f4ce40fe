import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
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
} from '../dto/post-records.dto';
import { CreatePostRequest, PostListingQuery, UpdatePostRequest } from '../dto/post-requests.dto';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { PostsService } from '../services/posts.service';

/** The posts of a space: optional-auth reads and the author's writes (api-spec.md). */
@ApiTags('posts')
@Controller('v1/spaces/:space/posts')
export class PostsController {
  constructor(private readonly posts: PostsService) {}

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

  @Get(':post')
  @RateLimitClass('read')
  @OptionalAuth('read:posts')
  @ApiOperation({ summary: 'One post: eligible with the full post, or gated with a reason' })
  @ApiOkResponse({ schema: POST_RESPONSE_SCHEMA })
  getSpacePost(
    @OptionalPrincipal() principal: RequestPrincipal | null,
    @Param('space') space: string,
    @Param('post') post: string,
  ): Promise<PostResponse> {
    return this.posts.get(principal, space, post);
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

  @Patch(':post')
  @RateLimitClass('create')
  @Gated(['write:posts', 'read:posts'], { spaceParam: 'space' })
  @ApiOperation({
    summary: 'Changes the caller’s own post (at least one of title, body, topic, attachments)',
  })
  @ApiOkResponse({ type: FullPost })
  updatePost(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('post') post: string,
    @Body() body: UpdatePostRequest,
  ): Promise<FullPost> {
    return this.posts.update(principal, space, post, body);
  }

  @Delete(':post')
  @RateLimitClass('create')
  @Gated(['write:posts', 'read:posts'], { spaceParam: 'space' })
  @ApiOperation({ summary: 'Deletes the caller’s own post' })
  @ApiOkResponse({ type: DeletedPostResponse })
  deletePost(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('post') post: string,
  ): Promise<DeletedPostResponse> {
    return this.posts.remove(principal, space, post);
  }
}
