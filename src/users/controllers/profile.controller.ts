import { Body, Controller, Delete, HttpCode, Patch, Post, Put } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { AllowedWhileErasurePending, IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import {
  EraseProfileRequest,
  ErasureScheduledResponse,
  OwnProfileResponse,
  UpdateProfileRequest,
} from '../dto/account.dto';
import { PinsResponse, ReplacePinsRequest } from '../dto/pins.dto';
import { AccountErasureService } from '../services/account-erasure.service';
import { UserSpacesService } from '../services/user-spaces.service';
import { UsersService } from '../services/users.service';

/** The caller's own profile and its pinned spaces (identity proof). */
@ApiTags('accounts')
@Controller('profile')
export class ProfileController {
  constructor(
    private readonly users: UsersService,
    private readonly userSpaces: UserSpacesService,
    private readonly erasure: AccountErasureService,
  ) {}

  @Delete()
  @HttpCode(202)
  // Not a class of design.md §6 (whose `sensitive` is key-proof present): the all-requests budget
  // only (docs/decisions/0194-erasure-audit-lines-and-rate-limits.md).
  @RateLimitClass('ordinary')
  @IdentityProof()
  // Asked again while pending: the new time (docs/decisions/0198-a-pending-erasure-accepts-proofs-only-to-leave.md).
  @AllowedWhileErasurePending()
  @ApiOperation({
    summary: 'Request the erasure of the own account',
    description:
      'Schedules the erasure after ACCOUNT_ERASURE_GRACE_DAYS (default 30); the account is deactivated ' +
      "meanwhile and POST /profile/restore cancels. `confirmHandle` must be the caller's handle.",
  })
  @ApiAcceptedResponse({ type: ErasureScheduledResponse })
  @ApiBadRequestResponse({ description: "confirmHandle is not the caller's handle" })
  @ApiConflictResponse({ description: 'The caller owns a space: transfer or delete it first' })
  requestErasure(
    @Principal() principal: RequestPrincipal,
    @Body() body: EraseProfileRequest,
  ): Promise<ErasureScheduledResponse> {
    return this.erasure.schedule(principal, body);
  }

  @Post('restore')
  @HttpCode(204)
  @RateLimitClass('ordinary')
  @IdentityProof()
  @AllowedWhileErasurePending()
  @ApiOperation({ summary: 'Cancel a scheduled erasure of the own account (during its grace period)' })
  @ApiNoContentResponse()
  @ApiConflictResponse({ description: 'No erasure is scheduled' })
  async restore(@Principal() principal: RequestPrincipal): Promise<void> {
    await this.erasure.restore(principal);
  }

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
