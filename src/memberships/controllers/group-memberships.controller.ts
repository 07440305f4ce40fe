import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Gated } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { MembershipsService } from '../services/memberships.service';
import { GroupMembershipListing } from '../dto/membership-records.dto';
import { GroupMembershipsQuery } from '../dto/membership-requests.dto';

/**
 * The granting person’s group memberships (api-spec.md "Credential-gated reads"): a credential with `read:memberships`, or a bare
 * identity proof reading the caller's own.
 */
@ApiTags('memberships')
@Controller('v1/group-memberships')
export class GroupMembershipsController {
  constructor(private readonly memberships: MembershipsService) {}

  @Get()
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
}
