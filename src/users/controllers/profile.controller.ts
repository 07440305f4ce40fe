import { Body, Controller, Patch, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { OwnProfileResponse, UpdateProfileRequest } from '../dto/account.dto';
import { PinsResponse, ReplacePinsRequest } from '../dto/pins.dto';
import { UserSpacesService } from '../services/user-spaces.service';
import { UsersService } from '../services/users.service';

/** The caller's own profile and its pinned spaces (identity proof). */
@ApiTags('accounts')
@Controller('profile')
export class ProfileController {
  constructor(
    private readonly users: UsersService,
    private readonly userSpaces: UserSpacesService,
  ) {}

  @Patch()
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Change the own profile' })
  @ApiOkResponse({ type: OwnProfileResponse })
  updateProfile(
    @Principal() principal: RequestPrincipal,
    @Body() body: UpdateProfileRequest,
  ): Promise<OwnProfileResponse> {
    return this.users.updateProfile(principal, body);
  }

  @Put('pins')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Replace the pinned spaces, in the order given (spaces the caller is in)' })
  @ApiOkResponse({ type: PinsResponse })
  replacePins(
    @Principal() principal: RequestPrincipal,
    @Body() body: ReplacePinsRequest,
  ): Promise<PinsResponse> {
    return this.userSpaces.replacePins(principal, body);
  }
}
