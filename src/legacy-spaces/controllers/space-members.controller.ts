import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import {
  BanRecord,
  BanRequest,
  ChangeRoleRequest,
  MemberPage,
  MemberRecord,
  SpaceMembersService,
} from '../../spaces';

/** The members of a space: the list (members), roles, kicks and bans (admins). */
@ApiTags('spaces (legacy)')
@Controller('spaces/:space/members')
export class SpaceMembersController {
  constructor(private readonly members: SpaceMembersService) {}

  @Get()
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'Active members with their roles (members), earliest joined first' })
  @ApiOkResponse({ type: MemberPage })
  listLegacySpaceMembers(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Query() query: PaginationQueryDto,
  ): Promise<MemberPage> {
    return this.members.members(principal, space, query);
  }

  @Put(':member')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Promote to admin or demote to member (admins)' })
  @ApiOkResponse({ type: MemberRecord })
  changeLegacySpaceMemberRole(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('member') member: string,
    @Body() body: ChangeRoleRequest,
  ): Promise<MemberRecord> {
    return this.members.changeRole(principal, space, member, body);
  }

  @Delete(':member')
  @RateLimitClass('ordinary')
  @HttpCode(204)
  @IdentityProof()
  @ApiOperation({ summary: 'Kick a member, who may rejoin (admins)' })
  @ApiNoContentResponse()
  kickLegacySpaceMember(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('member') member: string,
  ): Promise<void> {
    return this.members.kick(principal, space, member);
  }

  @Post(':member/bans')
  @RateLimitClass('ordinary')
  @HttpCode(200)
  @IdentityProof()
  @ApiOperation({ summary: 'Ban a person, who cannot rejoin until unbanned (admins)' })
  @ApiOkResponse({ type: BanRecord })
  banLegacySpaceMember(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('member') member: string,
    @Body() body: BanRequest,
  ): Promise<BanRecord> {
    return this.members.ban(principal, space, member, body);
  }
}
