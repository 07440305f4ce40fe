import { Controller, Get, Query, UseFilters } from '@nestjs/common';
import { ApiBadRequestResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Anonymous } from '../../../common/auth/access.decorators';
import { RateLimitClass } from '../../../infrastructure/rate-limit/rate-limit-class';
import { RelayIndexContentQuery, RelayIndexIdentitiesQuery } from '../dto/relay-requests.dto';
import {
  IndexContentResponse,
  IndexIdentitiesResponse,
  RelayErrorResponse,
} from '../dto/relay-responses.dto';
import { RelayApiService } from '../services/relay-api.service';
import { RelayExceptionFilter } from './relay-exception.filter';
import { BAD_REQUEST } from './relay-openapi';

/**
 * The embedded relay (design.md §1, WEB-RELAY.md), mounted at `<PUBLIC_BASE_URL>/relay`. Public:
 * ingest is open and verification is the gate. Failures are `{error}` except 404, which is the
 * service's constant body (RelayExceptionFilter).
 * This one: the index (v0) of the chains it holds.
 */
@ApiTags('relay')
@ApiExtraModels(RelayErrorResponse)
@UseFilters(RelayExceptionFilter)
@Controller('relay/index/v0')
export class RelayIndexController {
  constructor(private readonly relay: RelayApiService) {}

  @Get('identities')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'Identity chains (lexical by DID, or time-ordered)' })
  @ApiOkResponse({ type: IndexIdentitiesResponse })
  @ApiBadRequestResponse(BAD_REQUEST)
  relayIndexIdentities(@Query() query: RelayIndexIdentitiesQuery): Promise<IndexIdentitiesResponse> {
    return this.relay.indexIdentities(query);
  }

  @Get('content')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'Content chains (lexical by contentId, or time-ordered)' })
  @ApiOkResponse({ type: IndexContentResponse })
  @ApiBadRequestResponse(BAD_REQUEST)
  relayIndexContent(@Query() query: RelayIndexContentQuery): Promise<IndexContentResponse> {
    return this.relay.indexContent(query);
  }
}
