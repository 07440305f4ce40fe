import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import type { RequestPrincipal } from '../../common/auth/request-authenticator';
import {
  AdoptedKeyProof,
  AdoptKeyProofRequest,
  CreatedKeyProof,
  CreateKeyProofRequest,
  DeclinedKeyProof,
  KeyProofRecord,
} from '../dto/key-proof.dto';
import { KeyProofService } from '../services/key-proof.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

/** The owner side of the key-proof ceremony (design.md §10): the owner's own ceremonies only. */
@ApiTags('key-proof (owner)')
@Controller('key-proofs')
export class KeyProofsController {
  constructor(private readonly keyProofs: KeyProofService) {}

  @Post()
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Open a ceremony that lets another machine prove a new key' })
  @ApiCreatedResponse({ type: CreatedKeyProof })
  createKeyProof(
    @Principal() principal: RequestPrincipal,
    @Body() body: CreateKeyProofRequest,
  ): Promise<CreatedKeyProof> {
    return this.keyProofs.create(principal.did, body.roleSet);
  }

  @Get(':code')
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'One of the caller’s ceremonies' })
  @ApiOkResponse({ type: KeyProofRecord })
  getKeyProof(
    @Principal() principal: RequestPrincipal,
    @Param('code') code: string,
  ): Promise<KeyProofRecord> {
    return this.keyProofs.get(principal.did, code);
  }

  @Post(':code/adopt')
  @RateLimitClass('ordinary')
  @HttpCode(200)
  @IdentityProof()
  @ApiOperation({ summary: 'Add the presented key to the identity chain with a signed update' })
  @ApiOkResponse({ type: AdoptedKeyProof })
  adoptKeyProof(
    @Principal() principal: RequestPrincipal,
    @Param('code') code: string,
    @Body() body: AdoptKeyProofRequest,
  ): Promise<AdoptedKeyProof> {
    return this.keyProofs.adopt(principal.did, code, body.operation);
  }

  @Post(':code/decline')
  @RateLimitClass('ordinary')
  @HttpCode(200)
  @IdentityProof()
  @ApiOperation({ summary: 'Decline the ceremony: nothing is added' })
  @ApiOkResponse({ type: DeclinedKeyProof })
  declineKeyProof(
    @Principal() principal: RequestPrincipal,
    @Param('code') code: string,
  ): Promise<DeclinedKeyProof> {
    return this.keyProofs.decline(principal.did, code);
  }
}
