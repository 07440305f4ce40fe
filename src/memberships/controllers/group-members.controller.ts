import { Controller, Delete, HttpCode, Param, Put } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { GroupMemberRecord } from '../dto/membership-records.dto';
import { GroupsService } from '../services/groups.service';

/**
 * The members of a group (design.md §9): admins of the space put active members of the space into
 * it and take people out. Access as on the group routes.
 */
@ApiTags('spaces (administration)')
@Controller('spaces/:space/groups/:group/members')
export class GroupMembersController {
  constructor(private readonly groups: GroupsService) {}

  @Put(':member')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Put an active member of the space into the group' })
  @ApiOkResponse({ type: GroupMemberRecord })
  addSpaceGroupMember(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('group') group: string,
    @Param('member') member: string,
  ): Promise<GroupMemberRecord> {
    return this.groups.addMember(principal, space, group, member);
  }

  @Delete(':member')
  @RateLimitClass('ordinary')
  @HttpCode(204)
  @IdentityProof()
  @ApiOperation({ summary: 'Take a person out of the group' })
  @ApiNoContentResponse()
  removeSpaceGroupMember(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('group') group: string,
    @Param('member') member: string,
  ): Promise<void> {
    return this.groups.removeMember(principal, space, group, member);
  }
}
