import { Controller, Delete, Get, HttpCode, Param, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { BanPage, SpaceMembersService } from '../../spaces';

/** The people banned from a space (admins). */
@ApiTags('spaces (legacy)')
@Controller('spaces/:space/bans')
export class SpaceBansController {
  constructor(private readonly members: SpaceMembersService) {}

  @Get()
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'Banned people, most recent first (admins)' })
  @ApiOkResponse({ type: BanPage })
  listLegacySpaceBans(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Query() query: PaginationQueryDto,
  ): Promise<BanPage> {
    return this.members.bans(principal, space, query);
  }

  @Delete(':member')
  @RateLimitClass('ordinary')
  @HttpCode(204)
  @IdentityProof()
  @ApiOperation({ summary: 'Lift a ban (admins)' })
  @ApiNoContentResponse()
  unbanLegacySpaceMember(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('member') member: string,
  ): Promise<void> {
    return this.members.unban(principal, space, member);
  }
}
