import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import type { RequestPrincipal } from '../../common/auth/request-authenticator';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { ExportListing } from '../dto/export.dto';
import { ExportsService } from '../services/exports.service';

/**
 * The exports resource. Each route declares, where it is written, its path (the full prefix is
 * the controller's), its rate-limit class (read, action, create, sensitive: by cost), its access
 * class (@Anonymous, @OptionalAuth, @Gated, @IdentityProof) and its OpenAPI description.
 */
@ApiTags('exports')
@Controller('v1/exports')
export class ExportsController {
  constructor(private readonly service: ExportsService) {}

  @Get()
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'The caller’s exports, newest first' })
  @ApiOkResponse({ type: ExportListing })
  listExports(
    @Principal() principal: RequestPrincipal,
    @Query() query: PaginationQueryDto,
  ): Promise<ExportListing> {
    return this.service.list(principal.did, query);
  }
}
