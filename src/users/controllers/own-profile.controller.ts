import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AllowedWhileErasurePending, Gated } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { OwnProfileResponse } from '../dto/account.dto';
import { UsersService } from '../services/users.service';

/** The granting user's own profile (a credential with `read:profile`, or an identity proof). */
@ApiTags('accounts')
@Controller('v1/profile')
export class OwnProfileController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @RateLimitClass('read')
  @Gated(['read:profile'])
  // The person leaving sees what is pending (docs/decisions/0198-a-pending-erasure-accepts-proofs-only-to-leave.md).
  @AllowedWhileErasurePending()
  @ApiOperation({ summary: 'The granting user’s own profile' })
  @ApiOkResponse({ type: OwnProfileResponse })
  getOwnProfile(@Principal() principal: RequestPrincipal): Promise<OwnProfileResponse> {
    return this.users.getOwnProfile(principal);
  }
}
