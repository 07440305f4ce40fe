import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { DomainVerificationRecord } from '../dto/public-space-records.dto';
import { DomainVerificationRequest } from '../dto/site-requests.dto';
import { SpaceSiteService } from '../services/space-site.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

/**
 * The check of a space's external domain (design.md §9).
 * Admins of the space; a non-admin member gets 403, a non-member of a space without a public
 * profile the one 404.
 */
@ApiTags('spaces (administration)')
@Controller('spaces/:space/domain-verification')
export class SpaceDomainVerificationController {
  constructor(private readonly site: SpaceSiteService) {}

  @Post()
  @RateLimitClass('ordinary')
  @HttpCode(200)
  @IdentityProof()
  @ApiOperation({ summary: 'Check https://<domain>/.well-known/plat-did for the space’s DID' })
  @ApiOkResponse({ type: DomainVerificationRecord })
  verifySpaceDomain(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Body() body: DomainVerificationRequest,
  ): Promise<DomainVerificationRecord> {
    return this.site.verifyDomain(principal, space, body);
  }
}
