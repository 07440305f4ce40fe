import { Controller, Get, Query, UseFilters } from '@nestjs/common';
import { ApiBadRequestResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Anonymous } from '../../../common/auth/access.decorators';
import { RateLimitClass } from '../../../infrastructure/rate-limit/rate-limit-class';
import { RelayPageQuery } from '../dto/relay-requests.dto';
import { GlobalLogResponse, RelayErrorResponse } from '../dto/relay-responses.dto';
import { RelayApiService } from '../services/relay-api.service';
import { RelayExceptionFilter } from './relay-exception.filter';
import { BAD_REQUEST } from './relay-openapi';

/**
 * The embedded relay (design.md §1, WEB-RELAY.md), mounted at `<PUBLIC_BASE_URL>/relay`. Public:
 * ingest is open and verification is the gate. Failures are `{error}` except 404, which is the
 * service's constant body (RelayExceptionFilter).
 * This one: the global log.
 */
@ApiTags('relay')
@ApiExtraModels(RelayErrorResponse)
@UseFilters(RelayExceptionFilter)
@Controller('relay/proof/v1/log')
export class RelayLogController {
  constructor(private readonly relay: RelayApiService) {}

  @Get()
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'The global operation log, in ingestion order' })
  @ApiOkResponse({ type: GlobalLogResponse })
  @ApiBadRequestResponse(BAD_REQUEST)
  relayGetLog(@Query() query: RelayPageQuery): Promise<GlobalLogResponse> {
    return this.relay.log(query);
  }
}
