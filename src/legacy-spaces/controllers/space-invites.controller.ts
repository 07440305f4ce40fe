import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { IdentityProof, OptionalAuth } from '../../common/auth/access.decorators';
import { OptionalPrincipal, Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { CreateInviteRequest, JoinByCodeRequest } from '../dto/legacy-requests.dto';
import { JoinResultRecord } from '../../spaces';
import { InvitePreviewRecord, InviteRecord } from '../dto/legacy-records.dto';
import { SpaceInvitesService } from '../space-invites.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

@ApiTags('spaces (legacy)')
@Controller('spaces')
export class SpaceInvitesController {
  constructor(private readonly invites: SpaceInvitesService) {}

  @Get('invites/:code')
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

  @Post('join/:code')
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

  @Post(':id/my-invite')
  @RateLimitClass('ordinary')
  @HttpCode(201)
  @IdentityProof()
  @ApiOperation({ summary: 'Create the caller’s invite (admins); the previous code stops working' })
  @ApiCreatedResponse({ type: InviteRecord })
  createLegacySpaceInvite(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Body() body: CreateInviteRequest,
  ): Promise<InviteRecord> {
    return this.invites.create(principal, id, body);
  }

  @Get(':id/my-invite')
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'The caller’s active invite (admins)' })
  @ApiOkResponse({ type: InviteRecord })
  getLegacySpaceInvite(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
  ): Promise<InviteRecord> {
    return this.invites.mine(principal, id);
  }

  @Delete(':id/my-invite')
  @RateLimitClass('ordinary')
  @HttpCode(204)
  @IdentityProof()
  @ApiOperation({ summary: 'Revoke the caller’s invite (admins)' })
  @ApiNoContentResponse()
  revokeLegacySpaceInvite(@Principal() principal: RequestPrincipal, @Param('id') id: string): Promise<void> {
    return this.invites.revokeMine(principal, id);
  }
}
