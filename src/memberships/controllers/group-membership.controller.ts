import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Gated } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { MembershipsService } from '../services/memberships.service';
import { GroupMembershipItem } from '../dto/membership-records.dto';

/**
 * The granting person’s membership of one group (api-spec.md "Credential-gated reads"): a credential with `read:memberships`, or a bare
 * identity proof reading the caller's own.
 */
@ApiTags('memberships')
@Controller('v1/group-membership/:group')
export class GroupMembershipController {
  constructor(private readonly memberships: MembershipsService) {}

  @Get()
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
