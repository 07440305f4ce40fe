import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
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
import { RateLimiter } from '../../../infrastructure/rate-limit/rate-limiter.service';
import { RelayIndexContentQuery, RelayIndexIdentitiesQuery, RelayPageQuery } from '../dto/relay-requests.dto';
import { IngestOperationsRequest } from '../dto/relay-requests.dto';
import {
  ChainLogResponse,
  ContentStateResponse,
  CountersignaturesResponse,
  GlobalLogResponse,
  IdentityStateResponse,
  IndexContentResponse,
  IndexIdentitiesResponse,
  IngestOperationsResponse,
  IssuerRevocationsResponse,
  OperationResponse,
  RelayErrorResponse,
  RelayWellKnownResponse,
  RevocationStatusResponse,
} from '../dto/relay-responses.dto';
import { RelayExceptionFilter } from './relay-exception.filter';
import { RelayApiService } from '../services/relay-api.service';
import { RateLimitClass } from '../../../infrastructure/rate-limit/rate-limit-class';

const NOT_FOUND = 'unknown or malformed id: the service’s constant 404 body';
const BAD_REQUEST = { type: RelayErrorResponse, description: 'invalid input, `{error}`' };

/**
 * The embedded relay (design.md §1, WEB-RELAY.md), mounted at `<PUBLIC_BASE_URL>/relay`. Public:
 * ingest is open and verification is the gate. Failures are `{error}` except 404, which is the
 * service's constant body.
 */
@ApiTags('relay')
@ApiExtraModels(RelayErrorResponse)
@UseFilters(RelayExceptionFilter)
@Controller('relay')
export class RelayController {
  constructor(
    private readonly relay: RelayApiService,
    private readonly limiter: RateLimiter,
  ) {}

  @Get('.well-known/plat-relay')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'Relay profile: DID, capabilities, profile artifact' })
  @ApiOkResponse({ type: RelayWellKnownResponse })
  relayWellKnown(): Promise<RelayWellKnownResponse> {
    return this.relay.wellKnown();
  }

  @Post('proof/v1/operations')
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

  @Get('proof/v1/log')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'The global operation log, in ingestion order' })
  @ApiOkResponse({ type: GlobalLogResponse })
  @ApiBadRequestResponse(BAD_REQUEST)
  relayGetLog(@Query() query: RelayPageQuery): Promise<GlobalLogResponse> {
    return this.relay.log(query);
  }

  @Get('proof/v1/operations/:cid')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'One operation by CID' })
  @ApiParam({ name: 'cid' })
  @ApiOkResponse({ type: OperationResponse })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  relayGetOperation(@Param('cid') cid: string): Promise<OperationResponse> {
    return this.relay.operation(cid);
  }

  @Get('proof/v1/countersignatures/:cid')
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

  @Get('proof/v1/identities/:did')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'Identity state at the head of its chain' })
  @ApiParam({ name: 'did', example: 'did:plat:…' })
  @ApiOkResponse({ type: IdentityStateResponse })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  relayGetIdentity(@Param('did') did: string): Promise<IdentityStateResponse> {
    return this.relay.identity(did);
  }

  @Get('proof/v1/identities/:did/log')
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

  @Get('proof/v1/content/:contentId')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'Content chain state at its selected head' })
  @ApiParam({ name: 'contentId' })
  @ApiOkResponse({ type: ContentStateResponse })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  relayGetContent(@Param('contentId') contentId: string): Promise<ContentStateResponse> {
    return this.relay.content(contentId);
  }

  @Get('proof/v1/content/:contentId/log')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'Content log (every branch), in ingestion order' })
  @ApiParam({ name: 'contentId' })
  @ApiOkResponse({ type: ChainLogResponse })
  @ApiBadRequestResponse(BAD_REQUEST)
  @ApiNotFoundResponse({ description: NOT_FOUND })
  relayGetContentLog(
    @Param('contentId') contentId: string,
    @Query() query: RelayPageQuery,
  ): Promise<ChainLogResponse> {
    return this.relay.contentLog(contentId, query);
  }

  @Get('content/:contentId/blob')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'The current document of public content' })
  @ApiParam({ name: 'contentId' })
  @ApiOkResponse({ schema: { type: 'object', additionalProperties: true } })
  @ApiNotFoundResponse({ description: `${NOT_FOUND}; also when the relay holds no current document` })
  relayGetBlob(@Param('contentId') contentId: string): Promise<Record<string, unknown>> {
    return this.relay.blob(contentId);
  }

  @Get('index/v0/identities')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'Identity chains (lexical by DID, or time-ordered)' })
  @ApiOkResponse({ type: IndexIdentitiesResponse })
  @ApiBadRequestResponse(BAD_REQUEST)
  relayIndexIdentities(@Query() query: RelayIndexIdentitiesQuery): Promise<IndexIdentitiesResponse> {
    return this.relay.indexIdentities(query);
  }

  @Get('index/v0/content')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'Content chains (lexical by contentId, or time-ordered)' })
  @ApiOkResponse({ type: IndexContentResponse })
  @ApiBadRequestResponse(BAD_REQUEST)
  relayIndexContent(@Query() query: RelayIndexContentQuery): Promise<IndexContentResponse> {
    return this.relay.indexContent(query);
  }

  @Get('revocations/v1/credential/:credentialCID')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'Whether this relay holds a revocation of the credential' })
  @ApiParam({ name: 'credentialCID' })
  @ApiOkResponse({ type: RevocationStatusResponse })
  @ApiBadRequestResponse({ ...BAD_REQUEST, description: 'not a well-formed credential CID, `{error}`' })
  relayRevocationStatus(@Param('credentialCID') credentialCid: string): Promise<RevocationStatusResponse> {
    return this.relay.revocationStatus(credentialCid);
  }

  @Get('revocations/v1/issuer/:did')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'Revocations by one issuer, by credential CID' })
  @ApiParam({ name: 'did' })
  @ApiOkResponse({ type: IssuerRevocationsResponse })
  @ApiBadRequestResponse(BAD_REQUEST)
  relayIssuerRevocations(
    @Param('did') did: string,
    @Query() query: RelayPageQuery,
  ): Promise<IssuerRevocationsResponse> {
    return this.relay.issuerRevocations(did, query);
  }
}
