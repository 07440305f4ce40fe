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
import { ChainLogResponse, ContentStateResponse, RelayErrorResponse } from '../dto/relay-responses.dto';
import { RelayApiService } from '../services/relay-api.service';
import { RelayExceptionFilter } from './relay-exception.filter';
import { BAD_REQUEST, NOT_FOUND } from './relay-openapi';

/**
 * The embedded relay (design.md §1, WEB-RELAY.md), mounted at `<PUBLIC_BASE_URL>/relay`. Public:
 * ingest is open and verification is the gate. Failures are `{error}` except 404, which is the
 * service's constant body (RelayExceptionFilter).
 * This one: content chains, their state and their log (`:content` is a content id).
 */
@ApiTags('relay')
@ApiExtraModels(RelayErrorResponse)
@UseFilters(RelayExceptionFilter)
@Controller('relay/proof/v1/content/:content')
export class RelayContentController {
  constructor(private readonly relay: RelayApiService) {}

  @Get()
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'Content chain state at its selected head' })
  @ApiParam({ name: 'content' })
  @ApiOkResponse({ type: ContentStateResponse })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  relayGetContent(@Param('content') contentId: string): Promise<ContentStateResponse> {
    return this.relay.content(contentId);
  }

  @Get('log')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'Content log (every branch), in ingestion order' })
  @ApiParam({ name: 'content' })
  @ApiOkResponse({ type: ChainLogResponse })
  @ApiBadRequestResponse(BAD_REQUEST)
  @ApiNotFoundResponse({ description: NOT_FOUND })
  relayGetContentLog(
    @Param('content') contentId: string,
    @Query() query: RelayPageQuery,
  ): Promise<ChainLogResponse> {
    return this.relay.contentLog(contentId, query);
  }
}
