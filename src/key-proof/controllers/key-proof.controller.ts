import { Body, Controller, Get, HttpCode, Post, Query, UseFilters } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { KeyProofRoute } from '../../common/auth/access.decorators';
import {
  KeyProofCodeQuery,
  KeyProofResolution,
  KeyProofResolutionNotFound,
  KeyProofStatus,
  PresentedKeyProof,
  PresentKeyProofRequest,
} from '../dto/key-proof.dto';
import { KeyProofExceptionsFilter } from './key-proof-exceptions.filter';
import { KeyProofService } from '../services/key-proof.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

/** The anonymous side of the key-proof ceremony: the signed envelope is the whole capability. */
@ApiTags('key-proof')
@Controller()
@UseFilters(KeyProofExceptionsFilter)
export class KeyProofController {
  constructor(private readonly keyProofs: KeyProofService) {}

  @Get('.well-known/plat-key-proof')
  @RateLimitClass('read')
  @KeyProofRoute()
  @ApiOperation({ summary: 'Key-proof resolution document of an open ceremony' })
  @ApiOkResponse({ type: KeyProofResolution })
  @ApiNotFoundResponse({ type: KeyProofResolutionNotFound, description: 'unknown or expired code' })
  resolveKeyProof(@Query() query: KeyProofCodeQuery): Promise<KeyProofResolution> {
    return this.keyProofs.resolve(query.code);
  }

  @Post('v1/key-proof/present')
  @RateLimitClass('sensitive')
  @HttpCode(200)
  @KeyProofRoute()
  @ApiOperation({ summary: 'Present a signed key-add envelope to an open ceremony' })
  @ApiOkResponse({ type: PresentedKeyProof })
  presentKeyProof(@Body() body: PresentKeyProofRequest): Promise<PresentedKeyProof> {
    return this.keyProofs.present(body);
  }

  @Get('v1/key-proof/status')
  @RateLimitClass('read')
  @KeyProofRoute()
  @ApiOperation({ summary: 'State of a ceremony, as the presenting tool polls it' })
  @ApiOkResponse({ type: KeyProofStatus })
  getKeyProofStatus(@Query() query: KeyProofCodeQuery): Promise<KeyProofStatus> {
    return this.keyProofs.status(query.code);
  }
}
