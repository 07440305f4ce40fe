import { Controller, Get, Param, Query, UseFilters } from '@nestjs/common';
import {
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
import { CountersignaturesResponse, RelayErrorResponse } from '../dto/relay-responses.dto';
import { RelayApiService } from '../services/relay-api.service';
import { RelayExceptionFilter } from './relay-exception.filter';
import { NOT_FOUND } from './relay-openapi';

/**
 * The embedded relay (design.md §1, WEB-RELAY.md), mounted at `<PUBLIC_BASE_URL>/relay`. Public:
 * ingest is open and verification is the gate. Failures are `{error}` except 404, which is the
 * service's constant body (RelayExceptionFilter).
 * This one: the countersignatures of an operation.
 */
@ApiTags('relay')
@ApiExtraModels(RelayErrorResponse)
@UseFilters(RelayExceptionFilter)
@Controller('relay/proof/v1/countersignatures/:cid')
export class RelayCountersignaturesController {
  constructor(private readonly relay: RelayApiService) {}

  @Get()
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'Countersignatures of an operation (this relay accepts none)' })
  @ApiParam({ name: 'cid' })
  @ApiOkResponse({ type: CountersignaturesResponse })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  relayGetCountersignatures(
    @Param('cid') cid: string,
    @Query() query: RelayPageQuery,
  ): Promise<CountersignaturesResponse> {
    return this.relay.countersignatures(cid, query);
  }
}
