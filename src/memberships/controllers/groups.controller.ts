import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { GroupAdminListing, GroupRecord } from '../dto/membership-records.dto';
import { GroupRequest } from '../dto/membership-requests.dto';
import { GroupsService } from '../services/groups.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

/**
 * Groups administration (design.md §9): admins of the space. A non-admin member gets 403, a
 * non-member of a space without a public profile the one 404.
 */
@ApiTags('spaces (administration)')
@Controller('spaces/:space/groups')
export class GroupsController {
  constructor(private readonly groups: GroupsService) {}

  @Get()
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'Every group of the space, oldest first (admins)' })
  @ApiOkResponse({ type: GroupAdminListing })
  listSpaceGroupsForAdmin(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Query() query: PaginationQueryDto,
  ): Promise<GroupAdminListing> {
    return this.groups.list(principal, space, query);
  }

  @Post()
  @RateLimitClass('ordinary')
  @HttpCode(201)
  @IdentityProof()
  @ApiOperation({ summary: 'Create a group (with its own DID)' })
  @ApiCreatedResponse({ type: GroupRecord })
  createSpaceGroup(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Body() body: GroupRequest,
  ): Promise<GroupRecord> {
    return this.groups.create(principal, space, body);
  }

  @Put(':group')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Change a group’s name, description and color' })
  @ApiOkResponse({ type: GroupRecord })
  updateSpaceGroup(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('group') group: string,
    @Body() body: GroupRequest,
  ): Promise<GroupRecord> {
    return this.groups.update(principal, space, group, body);
  }

  @Delete(':group')
  @RateLimitClass('ordinary')
  @HttpCode(204)
  @IdentityProof()
  @ApiOperation({ summary: 'Delete a group and its memberships' })
  @ApiNoContentResponse()
  deleteSpaceGroup(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('group') group: string,
  ): Promise<void> {
    return this.groups.remove(principal, space, group);
  }
}
