import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import type { RequestPrincipal } from '../../common/auth/request-authenticator';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { ExportListing, ExportRecord } from '../dto/export.dto';
import { ExportsService } from '../services/exports.service';

const SPACE_PARAM = { name: 'space', example: 'space_0196f0a2c4d87e3f9b1a5c6d7e8f9012' };
const EXPORT_PARAM = { name: 'export', example: 'export_0196f0a2c4d87e3f9b1a5c6d7e8f9012' };

/**
 * Space exports (issue 35 item 4; docs/decisions/0215-space-exports-share-the-personal-machinery.md):
 * the space's owner only (a non-owner member 403, a stranger to a space without a public profile
 * the constant 404, as design.md §9's administration); bare identity proof, as the personal export.
 * The archive is downloaded by the signed URL of GET /v1/exports/{export}/archive.
 */
@ApiTags('exports')
@Controller('v1/spaces/:space/exports')
export class SpaceExportsController {
  constructor(private readonly service: ExportsService) {}

  @Post()
  @HttpCode(202)
  @RateLimitClass('sensitive')
  @IdentityProof()
  @ApiParam(SPACE_PARAM)
  @ApiOperation({
    summary: 'Starts an export of the space (its owner only)',
    description:
      'Queues the build of one zip archive (settings, topics, pages, posts, comments, members, events, products, releases, media, ' +
      'the chains of the space and of its public content (verifiable offline), a README and a JSON Schema per file); poll GET /v1/spaces/{space}/exports/{export} until it is ready. ' +
      'One at a time per space: 409 while one is queued or running.',
  })
  @ApiAcceptedResponse({ type: ExportRecord })
  @ApiForbiddenResponse({ description: 'The caller is a member but not the owner' })
  @ApiNotFoundResponse({ description: 'No such space, or one the caller may not reach' })
  @ApiConflictResponse({ description: 'An export of the space is queued or running' })
  requestSpaceExport(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
  ): Promise<ExportRecord> {
    return this.service.requestOfSpace(principal.did, space);
  }

  @Get()
  @RateLimitClass('read')
  @IdentityProof()
  @ApiParam(SPACE_PARAM)
  @ApiOperation({ summary: 'The space’s exports, newest first (its owner only)' })
  @ApiOkResponse({ type: ExportListing })
  listSpaceExports(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Query() query: PaginationQueryDto,
  ): Promise<ExportListing> {
    return this.service.listOfSpace(principal.did, space, query);
  }

  @Get(':export')
  @RateLimitClass('read')
  @IdentityProof()
  @ApiParam(SPACE_PARAM)
  @ApiParam(EXPORT_PARAM)
  @ApiOperation({
    summary: 'One of the space’s exports: its state, and when ready a signed URL of the archive',
  })
  @ApiOkResponse({ type: ExportRecord })
  getSpaceExport(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('export') exportId: string,
  ): Promise<ExportRecord> {
    return this.service.showOfSpace(principal.did, space, exportId);
  }
}
