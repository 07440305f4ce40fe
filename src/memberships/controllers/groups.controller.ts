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
import { GroupAdminListing, GroupMemberRecord, GroupRecord } from '../dto/membership-records.dto';
import { GroupRequest } from '../dto/membership-requests.dto';
import { GroupsService } from '../groups.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

/**
 * Groups administration (design.md §9): admins of the space. A non-admin member gets 403, a
 * non-member of a space without a public profile the one 404.
 */
@ApiTags('spaces (administration)')
@Controller('spaces')
export class GroupsController {
  constructor(private readonly groups: GroupsService) {}

  @Get(':id/groups')
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'Every group of the space, oldest first (admins)' })
  @ApiOkResponse({ type: GroupAdminListing })
  listSpaceGroupsForAdmin(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Query() query: PaginationQueryDto,
  ): Promise<GroupAdminListing> {
    return this.groups.list(principal, id, query);
  }

  @Post(':id/groups')
  @RateLimitClass('ordinary')
  @HttpCode(201)
  @IdentityProof()
  @ApiOperation({ summary: 'Create a group (with its own DID)' })
  @ApiCreatedResponse({ type: GroupRecord })
  createSpaceGroup(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Body() body: GroupRequest,
  ): Promise<GroupRecord> {
    return this.groups.create(principal, id, body);
  }

  @Put(':id/groups/:groupId')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Change a group’s name, description and color' })
  @ApiOkResponse({ type: GroupRecord })
  updateSpaceGroup(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Param('groupId') groupId: string,
    @Body() body: GroupRequest,
  ): Promise<GroupRecord> {
    return this.groups.update(principal, id, groupId, body);
  }

  @Delete(':id/groups/:groupId')
  @RateLimitClass('ordinary')
  @HttpCode(204)
  @IdentityProof()
  @ApiOperation({ summary: 'Delete a group and its memberships' })
  @ApiNoContentResponse()
  deleteSpaceGroup(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Param('groupId') groupId: string,
  ): Promise<void> {
    return this.groups.remove(principal, id, groupId);
  }

  @Put(':id/groups/:groupId/members/:memberDid')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Put an active member of the space into the group' })
  @ApiOkResponse({ type: GroupMemberRecord })
  addSpaceGroupMember(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Param('groupId') groupId: string,
    @Param('memberDid') memberDid: string,
  ): Promise<GroupMemberRecord> {
    return this.groups.addMember(principal, id, groupId, memberDid);
  }

  @Delete(':id/groups/:groupId/members/:memberDid')
  @RateLimitClass('ordinary')
  @HttpCode(204)
  @IdentityProof()
  @ApiOperation({ summary: 'Take a person out of the group' })
  @ApiNoContentResponse()
  removeSpaceGroupMember(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Param('groupId') groupId: string,
    @Param('memberDid') memberDid: string,
  ): Promise<void> {
    return this.groups.removeMember(principal, id, groupId, memberDid);
  }
}
