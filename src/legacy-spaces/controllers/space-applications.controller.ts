import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import {
  ApplicationSettingsRequest,
  ApplicationsQuery,
  ApplyRequest,
  DecideApplicationRequest,
} from '../dto/legacy-requests.dto';
import { ApplicationPage, ApplicationRecord, ApplicationSettingsRecord } from '../dto/legacy-records.dto';
import { SpaceApplicationsService } from '../space-applications.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

@ApiTags('spaces (legacy)')
@Controller()
export class SpaceApplicationsController {
  constructor(private readonly applications: SpaceApplicationsService) {}

  @Post('spaces/:id/applications')
  @RateLimitClass('ordinary')
  @HttpCode(201)
  @IdentityProof()
  @ApiOperation({ summary: 'Apply to a space whose join mode is application' })
  @ApiCreatedResponse({ type: ApplicationRecord })
  applyToLegacySpace(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Body() body: ApplyRequest,
  ): Promise<ApplicationRecord> {
    return this.applications.apply(principal, id, body);
  }

  @Get('spaces/:id/applications/me')
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'The caller’s latest application to the space' })
  @ApiOkResponse({ type: ApplicationRecord })
  getOwnLegacySpaceApplication(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
  ): Promise<ApplicationRecord> {
    return this.applications.mine(principal, id);
  }

  @Delete('spaces/:id/applications/me')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Withdraw the caller’s pending application (→ canceled); they may apply again' })
  @ApiOkResponse({ type: ApplicationRecord })
  withdrawOwnLegacySpaceApplication(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
  ): Promise<ApplicationRecord> {
    return this.applications.withdraw(principal, id);
  }

  @Get('spaces/:id/applications')
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'Applications in one state, pending by default, oldest first (admins)' })
  @ApiOkResponse({ type: ApplicationPage })
  listLegacySpaceApplications(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Query() query: ApplicationsQuery,
  ): Promise<ApplicationPage> {
    return this.applications.list(principal, id, query);
  }

  @Post('applications/:applicationId/approve')
  @RateLimitClass('ordinary')
  @HttpCode(200)
  @IdentityProof()
  @ApiOperation({ summary: 'Approve a pending application: the applicant becomes a member (admins)' })
  @ApiOkResponse({ type: ApplicationRecord })
  approveLegacySpaceApplication(
    @Principal() principal: RequestPrincipal,
    @Param('applicationId') applicationId: string,
    @Body() body: DecideApplicationRequest,
  ): Promise<ApplicationRecord> {
    return this.applications.approve(principal, applicationId, body);
  }

  @Post('applications/:applicationId/reject')
  @RateLimitClass('ordinary')
  @HttpCode(200)
  @IdentityProof()
  @ApiOperation({ summary: 'Reject a pending application; the applicant may reapply (admins)' })
  @ApiOkResponse({ type: ApplicationRecord })
  rejectLegacySpaceApplication(
    @Principal() principal: RequestPrincipal,
    @Param('applicationId') applicationId: string,
    @Body() body: DecideApplicationRequest,
  ): Promise<ApplicationRecord> {
    return this.applications.reject(principal, applicationId, body);
  }

  @Get('spaces/:id/application-settings')
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'The application questions' })
  @ApiOkResponse({ type: ApplicationSettingsRecord })
  getLegacySpaceApplicationSettings(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
  ): Promise<ApplicationSettingsRecord> {
    return this.applications.settings(principal, id);
  }

  @Put('spaces/:id/application-settings')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Replace the application questions, up to 5 (admins)' })
  @ApiOkResponse({ type: ApplicationSettingsRecord })
  updateLegacySpaceApplicationSettings(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Body() body: ApplicationSettingsRequest,
  ): Promise<ApplicationSettingsRecord> {
    return this.applications.updateSettings(principal, id, body);
  }
}
