import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { Anonymous, Gated, IdentityProof } from '../common/auth/access.decorators';
import { Principal } from '../common/auth/principal.decorator';
import { RequestPrincipal } from '../common/auth/request-authenticator';
import { PaginationQueryDto } from '../common/pagination/pagination-query.dto';
import {
  CreateAccountRequest,
  OwnProfileResponse,
  PublicProfileResponse,
  UpdateProfileRequest,
} from './dto/account.dto';
import {
  PinSpaceRequest,
  PinsResponse,
  ReplacePinsRequest,
  UserDirectoryListing,
  UserProfileResponse,
  UserSpaceItem,
  UserSpaceListing,
} from './dto/pins.dto';
import { UserSpacesService } from './user-spaces.service';
import { UsersService } from './users.service';
import { RateLimitClass } from '../infrastructure/rate-limit/rate-limit-class';

const USER_PARAM = { name: 'user', description: 'handle (any case), identity id or DID' };
const HIDDEN_USER = 'no such user, or a private profile (same bytes for everything hidden)';

@ApiTags('accounts')
@Controller()
export class AccountsController {
  constructor(
    private readonly users: UsersService,
    private readonly userSpaces: UserSpacesService,
  ) {}

  @Post('users')
  @RateLimitClass('create')
  @HttpCode(201)
  @IdentityProof()
  @ApiOperation({ summary: 'Claim an account for the signing identity' })
  @ApiCreatedResponse({ type: PublicProfileResponse })
  createAccount(
    @Principal() principal: RequestPrincipal,
    @Body() body: CreateAccountRequest,
  ): Promise<PublicProfileResponse> {
    return this.users.createAccount(principal, body);
  }

  @Patch('profile')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Change the own profile' })
  @ApiOkResponse({ type: OwnProfileResponse })
  updateProfile(
    @Principal() principal: RequestPrincipal,
    @Body() body: UpdateProfileRequest,
  ): Promise<OwnProfileResponse> {
    return this.users.updateProfile(principal, body);
  }

  @Get('v1/profile')
  @RateLimitClass('read')
  @Gated(['read:profile'])
  @ApiOperation({ summary: 'The granting user’s own profile' })
  @ApiOkResponse({ type: OwnProfileResponse })
  getOwnProfile(@Principal() principal: RequestPrincipal): Promise<OwnProfileResponse> {
    return this.users.getOwnProfile(principal);
  }

  @Put('profile/pins')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Replace the pinned spaces, in the order given (spaces the caller is in)' })
  @ApiOkResponse({ type: PinsResponse })
  replacePins(
    @Principal() principal: RequestPrincipal,
    @Body() body: ReplacePinsRequest,
  ): Promise<PinsResponse> {
    return this.userSpaces.replacePins(principal, body);
  }

  @Put('spaces/:id/pin')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Pin the space to the own profile, or change its pin message (members)' })
  @ApiOkResponse({ type: UserSpaceItem })
  pinSpace(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Body() body: PinSpaceRequest,
  ): Promise<UserSpaceItem> {
    return this.userSpaces.pin(principal, id, body);
  }

  @Delete('spaces/:id/pin')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Unpin the space (members; idempotent)' })
  @ApiOkResponse({ type: UserSpaceItem })
  unpinSpace(@Principal() principal: RequestPrincipal, @Param('id') id: string): Promise<UserSpaceItem> {
    return this.userSpaces.unpin(principal, id);
  }

  @Get('v1/users')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'Public profiles, earliest account first, each with its pinned spaces' })
  @ApiOkResponse({ type: UserDirectoryListing })
  listPublicProfiles(@Query() query: PaginationQueryDto): Promise<UserDirectoryListing> {
    return this.users.listPublicProfiles(query);
  }

  @Get('v1/users/:user')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'A public profile by handle, identity id or DID, with its public spaces' })
  @ApiParam(USER_PARAM)
  @ApiOkResponse({ type: UserProfileResponse })
  @ApiNotFoundResponse({ description: HIDDEN_USER })
  getPublicProfile(@Param('user') user: string): Promise<UserProfileResponse> {
    return this.users.getPublicProfile(user);
  }

  @Get('v1/users/:user/spaces')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'The user’s public spaces: pinned first in their order, then by join recency' })
  @ApiParam(USER_PARAM)
  @ApiOkResponse({ type: UserSpaceListing })
  @ApiNotFoundResponse({ description: HIDDEN_USER })
  listUserSpaces(@Param('user') user: string, @Query() query: PaginationQueryDto): Promise<UserSpaceListing> {
    return this.users.listPublicSpaces(user, query);
  }
}
