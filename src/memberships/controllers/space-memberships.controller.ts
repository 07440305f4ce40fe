import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Gated } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { MembershipsService } from '../services/memberships.service';
import { SpaceMembershipListing } from '../dto/membership-records.dto';
import { MembershipsQuery } from '../dto/membership-requests.dto';

/**
 * The granting person’s space memberships (api-spec.md "Credential-gated reads"): a credential with `read:memberships`, or a bare
 * identity proof reading the caller's own.
 */
@ApiTags('memberships')
@Controller('v1/memberships')
export class SpaceMembershipsController {
  constructor(private readonly memberships: MembershipsService) {}

  @Get()
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
}
