import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Gated } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { MembershipsService } from '../services/memberships.service';
import { SpaceMembershipItem } from '../dto/membership-records.dto';

/**
 * The granting person’s membership of one space (api-spec.md "Credential-gated reads"): a credential with `read:memberships`, or a bare
 * identity proof reading the caller's own.
 */
@ApiTags('memberships')
@Controller('v1/membership/:space')
export class SpaceMembershipController {
  constructor(private readonly memberships: MembershipsService) {}

  @Get()
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
}
