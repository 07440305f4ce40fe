import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OptionalAuth } from '../../common/auth/access.decorators';
import { OptionalPrincipal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { InvitePreviewRecord } from '../dto/legacy-records.dto';
import { SpaceInvitesService } from '../services/space-invites.service';

/** What an invite code leads to, for anyone holding it. */
@ApiTags('spaces (legacy)')
@Controller('spaces/invites/:code')
export class InvitePreviewsController {
  constructor(private readonly invites: SpaceInvitesService) {}

  @Get()
  @RateLimitClass('read')
  @OptionalAuth()
  @ApiOperation({ summary: 'What an invite code leads to; anyone holding it' })
  @ApiOkResponse({ type: InvitePreviewRecord })
  previewLegacySpaceInvite(
    @OptionalPrincipal() principal: RequestPrincipal | null,
    @Param('code') code: string,
  ): Promise<InvitePreviewRecord> {
    return this.invites.preview(code, principal);
  }
}
