import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import {
  JoinResultRecord,
  MemberRecord,
  PersonalStatusRequest,
  SpaceIdBody,
  SpaceMembersService,
  ViewerRecord,
} from '../../spaces';

/** The caller's own membership of a space: join, leave, their relationship to it, their status message. */
@ApiTags('spaces (legacy)')
@Controller('spaces/:space')
export class SpaceMembershipController {
  constructor(private readonly members: SpaceMembersService) {}

  @Post('join')
  @RateLimitClass('ordinary')
  @HttpCode(200)
  @IdentityProof()
  @ApiOperation({ summary: 'Join a public space whose join mode is open' })
  @ApiOkResponse({ type: JoinResultRecord })
  joinLegacySpace(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Body() body: SpaceIdBody,
  ): Promise<JoinResultRecord> {
    return this.members.join(principal, space, body);
  }

  @Delete('membership')
  @RateLimitClass('ordinary')
  @HttpCode(204)
  @IdentityProof()
  @ApiOperation({ summary: 'Leave the space' })
  @ApiNoContentResponse()
  leaveLegacySpace(@Principal() principal: RequestPrincipal, @Param('space') space: string): Promise<void> {
    return this.members.leave(principal, space);
  }

  @Get('viewer')
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'The caller’s relationship to the space' })
  @ApiOkResponse({ type: ViewerRecord })
  getLegacySpaceViewer(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
  ): Promise<ViewerRecord> {
    return this.members.viewer(principal, space);
  }

  @Put('status')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Set the caller’s personal status message in the space (members)' })
  @ApiOkResponse({ type: MemberRecord })
  setLegacySpaceStatus(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Body() body: PersonalStatusRequest,
  ): Promise<MemberRecord> {
    return this.members.setStatus(principal, space, body);
  }
}
