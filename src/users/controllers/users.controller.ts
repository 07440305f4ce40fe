import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { CreateAccountRequest, PublicProfileResponse } from '../dto/account.dto';
import { UsersService } from '../services/users.service';

/** Accounts: one claimed for the signing identity. */
@ApiTags('accounts')
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Post()
  @RateLimitClass('create')
  @HttpCode(201)
  @IdentityProof()
  @ApiOperation({ summary: 'Claim an account for the signing identity' })
  @ApiCreatedResponse({ type: PublicProfileResponse })
  createAccount(
    @Principal() principal: RequestPrincipal,
    @Body() body: CreateAccountRequest,
  ): Promise<PublicProfileResponse> {
    return this.users.createAccount(principal, body);
  }
}
