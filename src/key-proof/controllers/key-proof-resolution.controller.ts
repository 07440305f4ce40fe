import { Controller, Get, Query, UseFilters } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { KeyProofRoute } from '../../common/auth/access.decorators';
import { KeyProofCodeQuery, KeyProofResolution, KeyProofResolutionNotFound } from '../dto/key-proof.dto';
import { KeyProofExceptionsFilter } from './key-proof-exceptions.filter';
import { KeyProofService } from '../services/key-proof.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

/** The key-proof resolution document (design.md §10): what a tool reads first, anonymously. */
@ApiTags('key-proof')
@Controller('.well-known/plat-key-proof')
@UseFilters(KeyProofExceptionsFilter)
export class KeyProofResolutionController {
  constructor(private readonly keyProofs: KeyProofService) {}

  @Get()
  @RateLimitClass('read')
  @KeyProofRoute()
  @ApiOperation({ summary: 'Key-proof resolution document of an open ceremony' })
  @ApiOkResponse({ type: KeyProofResolution })
  @ApiNotFoundResponse({ type: KeyProofResolutionNotFound, description: 'unknown or expired code' })
  resolveKeyProof(@Query() query: KeyProofCodeQuery): Promise<KeyProofResolution> {
    return this.keyProofs.resolve(query.code);
  }
}
