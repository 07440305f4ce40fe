import { Controller, Get, Param, Query, UseFilters } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { Anonymous } from '../../../common/auth/access.decorators';
import { RateLimitClass } from '../../../infrastructure/rate-limit/rate-limit-class';
import { RelayPageQuery } from '../dto/relay-requests.dto';
import {
  IssuerRevocationsResponse,
  RelayErrorResponse,
  RevocationStatusResponse,
} from '../dto/relay-responses.dto';
import { RelayApiService } from '../services/relay-api.service';
import { RelayExceptionFilter } from './relay-exception.filter';
import { BAD_REQUEST } from './relay-openapi';

/**
 * The embedded relay (design.md §1, WEB-RELAY.md), mounted at `<PUBLIC_BASE_URL>/relay`. Public:
 * ingest is open and verification is the gate. Failures are `{error}` except 404, which is the
 * service's constant body (RelayExceptionFilter).
 * This one: the revocations it holds, by credential and by issuer.
 */
@ApiTags('relay')
@ApiExtraModels(RelayErrorResponse)
@UseFilters(RelayExceptionFilter)
@Controller('relay/revocations/v1')
export class RelayRevocationsController {
  constructor(private readonly relay: RelayApiService) {}

  @Get('credential/:cid')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'Whether this relay holds a revocation of the credential' })
  @ApiParam({ name: 'cid', description: 'the credential’s CID' })
  @ApiOkResponse({ type: RevocationStatusResponse })
  @ApiBadRequestResponse({ ...BAD_REQUEST, description: 'not a well-formed credential CID, `{error}`' })
  relayRevocationStatus(@Param('cid') credentialCid: string): Promise<RevocationStatusResponse> {
    return this.relay.revocationStatus(credentialCid);
  }

  @Get('issuer/:did')
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
