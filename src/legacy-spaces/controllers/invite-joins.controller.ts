import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { JoinResultRecord } from '../../spaces';
import { JoinByCodeRequest } from '../dto/legacy-requests.dto';
import { SpaceInvitesService } from '../services/space-invites.service';

/** Joining a space through an invite code. */
@ApiTags('spaces (legacy)')
@Controller('spaces/join/:code')
export class InviteJoinsController {
  constructor(private readonly invites: SpaceInvitesService) {}

  @Post()
  @RateLimitClass('ordinary')
  @HttpCode(200)
  @IdentityProof()
  @ApiOperation({
    summary: 'Join through an invite code (or apply, when the invite asks for an application)',
  })
  @ApiOkResponse({ type: JoinResultRecord })
  joinLegacySpaceByCode(
    @Principal() principal: RequestPrincipal,
    @Param('code') code: string,
    @Body() body: JoinByCodeRequest,
  ): Promise<JoinResultRecord> {
    return this.invites.join(principal, code, body);
  }
}
