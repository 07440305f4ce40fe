import { Controller, Get, Param, UseFilters } from '@nestjs/common';
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
import { RelayErrorResponse } from '../dto/relay-responses.dto';
import { RelayApiService } from '../services/relay-api.service';
import { RelayExceptionFilter } from './relay-exception.filter';
import { NOT_FOUND } from './relay-openapi';

/**
 * The embedded relay (design.md §1, WEB-RELAY.md), mounted at `<PUBLIC_BASE_URL>/relay`. Public:
 * ingest is open and verification is the gate. Failures are `{error}` except 404, which is the
 * service's constant body (RelayExceptionFilter).
 * This one: the current document of public content (`:content` is a content id).
 */
@ApiTags('relay')
@ApiExtraModels(RelayErrorResponse)
@UseFilters(RelayExceptionFilter)
@Controller('relay/content/:content/blob')
export class RelayBlobsController {
  constructor(private readonly relay: RelayApiService) {}

  @Get()
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'The current document of public content' })
  @ApiParam({ name: 'content' })
  @ApiOkResponse({ schema: { type: 'object', additionalProperties: true } })
  @ApiNotFoundResponse({ description: `${NOT_FOUND}; also when the relay holds no current document` })
  relayGetBlob(@Param('content') contentId: string): Promise<Record<string, unknown>> {
    return this.relay.blob(contentId);
  }
}
