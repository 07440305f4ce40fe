import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Gated } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import {
  GroupMembershipItem,
  GroupMembershipListing,
  SpaceMembershipItem,
  SpaceMembershipListing,
} from '../dto/membership-records.dto';
import { GroupMembershipsQuery, MembershipsQuery } from '../dto/membership-requests.dto';
import { MembershipsService } from '../memberships.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

/**
 * The granting person's space and group memberships (api-spec.md "Credential-gated reads"): a
 * credential with `read:memberships`, or a bare identity proof reading the caller's own.
 */
@ApiTags('memberships')
@Controller()
export class MembershipsController {
  constructor(private readonly memberships: MembershipsService) {}

  @Get('v1/memberships')
  @RateLimitClass('read')
  @Gated(['read:memberships'])
  @ApiOperation({ summary: 'The granting person’s space memberships, earliest joined first' })
  @ApiOkResponse({ type: SpaceMembershipListing })
  listMemberships(
    @Principal() principal: RequestPrincipal,
    @Query() query: MembershipsQuery,
  ): Promise<SpaceMembershipListing> {
    return this.memberships.list(principal, query);
  }

  @Get('v1/membership/:space')
  @RateLimitClass('read')
  @Gated(['read:memberships'])
  @ApiOperation({
    summary: 'The granting person’s membership of one space (404: not a member or no such space)',
  })
  @ApiOkResponse({ type: SpaceMembershipItem })
  getMembership(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
  ): Promise<SpaceMembershipItem> {
    return this.memberships.get(principal, space);
  }

  @Get('v1/group-memberships')
  @RateLimitClass('read')
  @Gated(['read:memberships'])
  @ApiOperation({ summary: 'The granting person’s group memberships, earliest joined first' })
  @ApiOkResponse({ type: GroupMembershipListing })
  listGroupMemberships(
    @Principal() principal: RequestPrincipal,
    @Query() query: GroupMembershipsQuery,
  ): Promise<GroupMembershipListing> {
    return this.memberships.listGroups(principal, query);
  }

  @Get('v1/group-membership/:group')
  @RateLimitClass('read')
  @Gated(['read:memberships'])
  @ApiOperation({ summary: 'The granting person’s membership of one group (404 on a miss)' })
  @ApiOkResponse({ type: GroupMembershipItem })
  getGroupMembership(
    @Principal() principal: RequestPrincipal,
    @Param('group') group: string,
  ): Promise<GroupMembershipItem> {
    return this.memberships.getGroup(principal, group);
  }
}
