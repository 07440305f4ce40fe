import { Controller, Get, Param, Query, UseFilters } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { Anonymous } from '../../../common/auth/access.decorators';
import { RateLimitClass } from '../../../infrastructure/rate-limit/rate-limit-class';
import { RelayPageQuery } from '../dto/relay-requests.dto';
import { ChainLogResponse, IdentityStateResponse, RelayErrorResponse } from '../dto/relay-responses.dto';
import { RelayApiService } from '../services/relay-api.service';
import { RelayExceptionFilter } from './relay-exception.filter';
import { BAD_REQUEST, NOT_FOUND } from './relay-openapi';

/**
 * The embedded relay (design.md §1, WEB-RELAY.md), mounted at `<PUBLIC_BASE_URL>/relay`. Public:
 * ingest is open and verification is the gate. Failures are `{error}` except 404, which is the
 * service's constant body (RelayExceptionFilter).
 * This one: identity chains, their state and their log.
 */
@ApiTags('relay')
@ApiExtraModels(RelayErrorResponse)
@UseFilters(RelayExceptionFilter)
@Controller('relay/proof/v1/identities/:did')
export class RelayIdentitiesController {
  constructor(private readonly relay: RelayApiService) {}

  @Get()
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'Identity state at the head of its chain' })
  @ApiParam({ name: 'did', example: 'did:plat:…' })
  @ApiOkResponse({ type: IdentityStateResponse })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  relayGetIdentity(@Param('did') did: string): Promise<IdentityStateResponse> {
    return this.relay.identity(did);
  }

  @Get('log')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'Identity log, genesis first' })
  @ApiParam({ name: 'did' })
  @ApiOkResponse({ type: ChainLogResponse })
  @ApiBadRequestResponse(BAD_REQUEST)
  @ApiNotFoundResponse({ description: NOT_FOUND })
  relayGetIdentityLog(@Param('did') did: string, @Query() query: RelayPageQuery): Promise<ChainLogResponse> {
    return this.relay.identityLog(did, query);
  }
}
