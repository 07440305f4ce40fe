import { Body, Controller, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { SiteRequest } from '../dto/site-requests.dto';
import { SpaceRecord } from '../dto/space-records.dto';
import { SpaceSiteService } from '../services/space-site.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

/**
 * A space's site settings (design.md §9).
 * Admins of the space; a non-admin member gets 403, a non-member of a space without a public
 * profile the one 404.
 */
@ApiTags('spaces (administration)')
@Controller('spaces/:space/site')
export class SpaceSiteController {
  constructor(private readonly site: SpaceSiteService) {}

  @Put()
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Change site settings: mode, subscribe form, category, links, discovery, header' })
  @ApiOkResponse({ type: SpaceRecord })
  updateSpaceSite(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Body() body: SiteRequest,
  ): Promise<SpaceRecord> {
    return this.site.updateSite(principal, space, body);
  }
}
