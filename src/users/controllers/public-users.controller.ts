import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Anonymous } from '../../common/auth/access.decorators';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { UserDirectoryListing, UserProfileResponse, UserSpaceListing } from '../dto/pins.dto';
import { UsersService } from '../services/users.service';

const USER_PARAM = { name: 'user', description: 'handle (any case), identity id or DID' };
const HIDDEN_USER = 'no such user, or a private profile (same bytes for everything hidden)';

/** The anonymous reads of public profiles (/v1/users). */
@ApiTags('accounts')
@Controller('v1/users')
export class PublicUsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'Public profiles, earliest account first, each with its pinned spaces' })
  @ApiOkResponse({ type: UserDirectoryListing })
  listPublicProfiles(@Query() query: PaginationQueryDto): Promise<UserDirectoryListing> {
    return this.users.listPublicProfiles(query);
  }

  @Get(':user')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'A public profile by handle, identity id or DID, with its public spaces' })
  @ApiParam(USER_PARAM)
  @ApiOkResponse({ type: UserProfileResponse })
  @ApiNotFoundResponse({ description: HIDDEN_USER })
  getPublicProfile(@Param('user') user: string): Promise<UserProfileResponse> {
    return this.users.getPublicProfile(user);
  }

  @Get(':user/spaces')
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
