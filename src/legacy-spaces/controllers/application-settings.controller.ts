import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { ApplicationSettingsRequest } from '../dto/legacy-requests.dto';
import { ApplicationSettingsRecord } from '../dto/legacy-records.dto';
import { SpaceApplicationsService } from '../services/space-applications.service';

/** The questions an application to a space answers. */
@ApiTags('spaces (legacy)')
@Controller('spaces/:space/application-settings')
export class ApplicationSettingsController {
  constructor(private readonly applications: SpaceApplicationsService) {}

  @Get()
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'The application questions' })
  @ApiOkResponse({ type: ApplicationSettingsRecord })
  getLegacySpaceApplicationSettings(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
  ): Promise<ApplicationSettingsRecord> {
    return this.applications.settings(principal, space);
  }

  @Put()
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Replace the application questions, up to 5 (admins)' })
  @ApiOkResponse({ type: ApplicationSettingsRecord })
  updateLegacySpaceApplicationSettings(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Body() body: ApplicationSettingsRequest,
  ): Promise<ApplicationSettingsRecord> {
    return this.applications.updateSettings(principal, space, body);
  }
}
