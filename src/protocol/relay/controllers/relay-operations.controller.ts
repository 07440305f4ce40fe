import { Body, Controller, Get, HttpCode, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Anonymous } from '../../../common/auth/access.decorators';
import { RateLimitClass } from '../../../infrastructure/rate-limit/rate-limit-class';
import { RateLimiter } from '../../../infrastructure/rate-limit/rate-limiter.service';
import { IngestOperationsRequest } from '../dto/relay-requests.dto';
import { IngestOperationsResponse, OperationResponse, RelayErrorResponse } from '../dto/relay-responses.dto';
import { RelayApiService } from '../services/relay-api.service';
import { RelayExceptionFilter } from './relay-exception.filter';
import { BAD_REQUEST, NOT_FOUND } from './relay-openapi';

/**
 * The embedded relay (design.md §1, WEB-RELAY.md), mounted at `<PUBLIC_BASE_URL>/relay`. Public:
 * ingest is open and verification is the gate. Failures are `{error}` except 404, which is the
 * service's constant body (RelayExceptionFilter).
 * This one: the operations, ingested and read one by one.
 */
@ApiTags('relay')
@ApiExtraModels(RelayErrorResponse)
@UseFilters(RelayExceptionFilter)
@Controller('relay/proof/v1/operations')
export class RelayOperationsController {
  constructor(
    private readonly relay: RelayApiService,
    private readonly limiter: RateLimiter,
  ) {}

  @Post()
  @RateLimitClass('create')
  @HttpCode(200)
  @Anonymous()
  @ApiOperation({
    summary: 'Ingest up to 100 operations (identity ops, content ops, revocations, public credentials)',
    description:
      'Every operation is verified against the relay’s state; results are per operation, in input order. ' +
      'Artifacts and countersignatures are rejected as unsupported.',
  })
  @ApiOkResponse({ type: IngestOperationsResponse })
  @ApiBadRequestResponse(BAD_REQUEST)
  async relayIngestOperations(
    @Body() body: IngestOperationsRequest,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<IngestOperationsResponse> {
    // Each operation is verification work: the batch costs `create` per operation
    // (docs/decisions/0031-relay-ingest-and-post-spaces-are-create.md).
    await this.limiter.chargePerItem(request, response, body.operations.length);
    return this.relay.ingest(body.operations);
  }

  @Get(':cid')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'One operation by CID' })
  @ApiParam({ name: 'cid' })
  @ApiOkResponse({ type: OperationResponse })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  relayGetOperation(@Param('cid') cid: string): Promise<OperationResponse> {
    return this.relay.operation(cid);
  }
}
