import { Body, Controller, Get, HttpCode, Post, Query, UseFilters } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { KeyProofRoute } from '../../common/auth/access.decorators';
import {
  KeyProofCodeQuery,
  KeyProofStatus,
  PresentedKeyProof,
  PresentKeyProofRequest,
} from '../dto/key-proof.dto';
import { KeyProofExceptionsFilter } from './key-proof-exceptions.filter';
import { KeyProofService } from '../services/key-proof.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

/** The anonymous side of the key-proof ceremony: the signed envelope is the whole capability. */
@ApiTags('key-proof')
@Controller('v1/key-proof')
@UseFilters(KeyProofExceptionsFilter)
export class KeyProofController {
  constructor(private readonly keyProofs: KeyProofService) {}

  @Post('present')
  @RateLimitClass('sensitive')
  @HttpCode(200)
  @KeyProofRoute()
  @ApiOperation({ summary: 'Present a signed key-add envelope to an open ceremony' })
  @ApiOkResponse({ type: PresentedKeyProof })
  presentKeyProof(@Body() body: PresentKeyProofRequest): Promise<PresentedKeyProof> {
    return this.keyProofs.present(body);
  }

  @Get('status')
  @RateLimitClass('read')
  @KeyProofRoute()
  @ApiOperation({ summary: 'State of a ceremony, as the presenting tool polls it' })
  @ApiOkResponse({ type: KeyProofStatus })
  getKeyProofStatus(@Query() query: KeyProofCodeQuery): Promise<KeyProofStatus> {
    return this.keyProofs.status(query.code);
  }
}
