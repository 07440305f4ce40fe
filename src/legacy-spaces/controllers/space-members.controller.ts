import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import {
  BanRequest,
  ChangeRoleRequest,
  PersonalStatusRequest,
  SpaceIdBody,
  BanPage,
  BanRecord,
  JoinResultRecord,
  MemberPage,
  MemberRecord,
  ViewerRecord,
  SpaceMembersService,
} from '../../spaces';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

@ApiTags('spaces (legacy)')
@Controller('spaces')
export class SpaceMembersController {
  constructor(private readonly members: SpaceMembersService) {}

  @Post(':id/join')
  @RateLimitClass('ordinary')
  @HttpCode(200)
  @IdentityProof()
  @ApiOperation({ summary: 'Join a public space whose join mode is open' })
  @ApiOkResponse({ type: JoinResultRecord })
  joinLegacySpace(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Body() body: SpaceIdBody,
  ): Promise<JoinResultRecord> {
    return this.members.join(principal, id, body);
  }

  @Delete(':id/membership')
  @RateLimitClass('ordinary')
  @HttpCode(204)
  @IdentityProof()
  @ApiOperation({ summary: 'Leave the space' })
  @ApiNoContentResponse()
  leaveLegacySpace(@Principal() principal: RequestPrincipal, @Param('id') id: string): Promise<void> {
    return this.members.leave(principal, id);
  }

  @Get(':id/members')
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'Active members with their roles (members), earliest joined first' })
  @ApiOkResponse({ type: MemberPage })
  listLegacySpaceMembers(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Query() query: PaginationQueryDto,
  ): Promise<MemberPage> {
    return this.members.members(principal, id, query);
  }

  @Put(':id/members/:memberDid')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Promote to admin or demote to member (admins)' })
  @ApiOkResponse({ type: MemberRecord })
  changeLegacySpaceMemberRole(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Param('memberDid') memberDid: string,
    @Body() body: ChangeRoleRequest,
  ): Promise<MemberRecord> {
    return this.members.changeRole(principal, id, memberDid, body);
  }

  @Delete(':id/members/:memberDid')
  @RateLimitClass('ordinary')
  @HttpCode(204)
  @IdentityProof()
  @ApiOperation({ summary: 'Kick a member, who may rejoin (admins)' })
  @ApiNoContentResponse()
  kickLegacySpaceMember(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Param('memberDid') memberDid: string,
  ): Promise<void> {
    return this.members.kick(principal, id, memberDid);
  }

  @Post(':id/members/:memberDid/bans')
  @RateLimitClass('ordinary')
  @HttpCode(200)
  @IdentityProof()
  @ApiOperation({ summary: 'Ban a person, who cannot rejoin until unbanned (admins)' })
  @ApiOkResponse({ type: BanRecord })
  banLegacySpaceMember(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Param('memberDid') memberDid: string,
    @Body() body: BanRequest,
  ): Promise<BanRecord> {
    return this.members.ban(principal, id, memberDid, body);
  }

  @Get(':id/bans')
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'Banned people, most recent first (admins)' })
  @ApiOkResponse({ type: BanPage })
  listLegacySpaceBans(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Query() query: PaginationQueryDto,
  ): Promise<BanPage> {
    return this.members.bans(principal, id, query);
  }

  @Delete(':id/bans/:memberDid')
  @RateLimitClass('ordinary')
  @HttpCode(204)
  @IdentityProof()
  @ApiOperation({ summary: 'Lift a ban (admins)' })
  @ApiNoContentResponse()
  unbanLegacySpaceMember(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Param('memberDid') memberDid: string,
  ): Promise<void> {
    return this.members.unban(principal, id, memberDid);
  }

  @Get(':id/viewer')
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'The caller’s relationship to the space' })
  @ApiOkResponse({ type: ViewerRecord })
  getLegacySpaceViewer(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
  ): Promise<ViewerRecord> {
    return this.members.viewer(principal, id);
  }

  @Put(':id/status')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Set the caller’s personal status message in the space (members)' })
  @ApiOkResponse({ type: MemberRecord })
  setLegacySpaceStatus(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Body() body: PersonalStatusRequest,
  ): Promise<MemberRecord> {
    return this.members.setStatus(principal, id, body);
  }
}
