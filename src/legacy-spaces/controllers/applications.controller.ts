import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { DecideApplicationRequest } from '../dto/legacy-requests.dto';
import { ApplicationRecord } from '../dto/legacy-records.dto';
import { SpaceApplicationsService } from '../services/space-applications.service';

/** The admins' decision on one application. */
@ApiTags('spaces (legacy)')
@Controller('applications/:application')
export class ApplicationsController {
  constructor(private readonly applications: SpaceApplicationsService) {}

  @Post('approve')
  @RateLimitClass('ordinary')
  @HttpCode(200)
  @IdentityProof()
  @ApiOperation({ summary: 'Approve a pending application: the applicant becomes a member (admins)' })
  @ApiOkResponse({ type: ApplicationRecord })
  approveLegacySpaceApplication(
    @Principal() principal: RequestPrincipal,
    @Param('application') application: string,
    @Body() body: DecideApplicationRequest,
  ): Promise<ApplicationRecord> {
    return this.applications.approve(principal, application, body);
  }

  @Post('reject')
  @RateLimitClass('ordinary')
  @HttpCode(200)
  @IdentityProof()
  @ApiOperation({ summary: 'Reject a pending application; the applicant may reapply (admins)' })
  @ApiOkResponse({ type: ApplicationRecord })
  rejectLegacySpaceApplication(
    @Principal() principal: RequestPrincipal,
    @Param('application') application: string,
    @Body() body: DecideApplicationRequest,
  ): Promise<ApplicationRecord> {
    return this.applications.reject(principal, application, body);
  }
}
