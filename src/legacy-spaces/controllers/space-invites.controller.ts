import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { CreateInviteRequest } from '../dto/legacy-requests.dto';
import { InviteRecord } from '../dto/legacy-records.dto';
import { SpaceInvitesService } from '../services/space-invites.service';

/** The calling admin's invite to a space. */
@ApiTags('spaces (legacy)')
@Controller('spaces/:space/my-invite')
export class SpaceInvitesController {
  constructor(private readonly invites: SpaceInvitesService) {}

  @Post()
  @RateLimitClass('ordinary')
  @HttpCode(201)
  @IdentityProof()
  @ApiOperation({ summary: 'Create the caller’s invite (admins); the previous code stops working' })
  @ApiCreatedResponse({ type: InviteRecord })
  createLegacySpaceInvite(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Body() body: CreateInviteRequest,
  ): Promise<InviteRecord> {
    return this.invites.create(principal, space, body);
  }

  @Get()
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'The caller’s active invite (admins)' })
  @ApiOkResponse({ type: InviteRecord })
  getLegacySpaceInvite(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
  ): Promise<InviteRecord> {
    return this.invites.mine(principal, space);
  }

  @Delete()
  @RateLimitClass('ordinary')
  @HttpCode(204)
  @IdentityProof()
  @ApiOperation({ summary: 'Revoke the caller’s invite (admins)' })
  @ApiNoContentResponse()
  revokeLegacySpaceInvite(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
  ): Promise<void> {
    return this.invites.revokeMine(principal, space);
  }
}
