import { Body, Controller, Delete, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { PinSpaceRequest, UserSpaceItem } from '../dto/pins.dto';
import { UserSpacesService } from '../services/user-spaces.service';

/** The caller's pin of one space on their profile (members of the space). */
@ApiTags('accounts')
@Controller('spaces/:space/pin')
export class SpacePinController {
  constructor(private readonly userSpaces: UserSpacesService) {}

  @Put()
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Pin the space to the own profile, or change its pin message (members)' })
  @ApiOkResponse({ type: UserSpaceItem })
  pinSpace(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Body() body: PinSpaceRequest,
  ): Promise<UserSpaceItem> {
    return this.userSpaces.pin(principal, space, body);
  }

  @Delete()
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Unpin the space (members; idempotent)' })
  @ApiOkResponse({ type: UserSpaceItem })
  unpinSpace(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
  ): Promise<UserSpaceItem> {
    return this.userSpaces.unpin(principal, space);
  }
}
