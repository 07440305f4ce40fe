import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { ApplicationsQuery, ApplyRequest } from '../dto/legacy-requests.dto';
import { ApplicationPage, ApplicationRecord } from '../dto/legacy-records.dto';
import { SpaceApplicationsService } from '../services/space-applications.service';

/** Applications to join a space: the applicant's own, and the admins' queue. */
@ApiTags('spaces (legacy)')
@Controller('spaces/:space/applications')
export class SpaceApplicationsController {
  constructor(private readonly applications: SpaceApplicationsService) {}

  @Post()
  @RateLimitClass('ordinary')
  @HttpCode(201)
  @IdentityProof()
  @ApiOperation({ summary: 'Apply to a space whose join mode is application' })
  @ApiCreatedResponse({ type: ApplicationRecord })
  applyToLegacySpace(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Body() body: ApplyRequest,
  ): Promise<ApplicationRecord> {
    return this.applications.apply(principal, space, body);
  }

  @Get()
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'Applications in one state, pending by default, oldest first (admins)' })
  @ApiOkResponse({ type: ApplicationPage })
  listLegacySpaceApplications(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Query() query: ApplicationsQuery,
  ): Promise<ApplicationPage> {
    return this.applications.list(principal, space, query);
  }

  @Get('me')
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'The caller’s latest application to the space' })
  @ApiOkResponse({ type: ApplicationRecord })
  getOwnLegacySpaceApplication(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
  ): Promise<ApplicationRecord> {
    return this.applications.mine(principal, space);
  }

  @Delete('me')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Withdraw the caller’s pending application (→ canceled); they may apply again' })
  @ApiOkResponse({ type: ApplicationRecord })
  withdrawOwnLegacySpaceApplication(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
  ): Promise<ApplicationRecord> {
    return this.applications.withdraw(principal, space);
  }
}
