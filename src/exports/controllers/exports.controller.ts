import { Controller, Get, HttpCode, Param, Post, Query, Res, StreamableFile } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { AllowedWhileErasurePending, Anonymous, IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import type { RequestPrincipal } from '../../common/auth/request-authenticator';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { SignedUrlQuery } from '../../common/signing/signed-url-query.dto';
import { ExportListing, ExportRecord } from '../dto/export.dto';
import { ExportsService } from '../services/exports.service';

/**
 * Personal exports (issue 35 item 3): the caller's data as one zip archive. Bare identity proof,
 * as `DELETE /profile`: a credential granted to an app never takes a person's whole data out.
 */
@ApiTags('exports')
@Controller('v1/exports')
export class ExportsController {
  constructor(private readonly service: ExportsService) {}

  @Post()
  @HttpCode(202)
  @RateLimitClass('sensitive')
  @IdentityProof()
  @AllowedWhileErasurePending()
  @ApiOperation({
    summary: 'Starts an export of the caller’s data',
    description:
      'Queues the build of one zip archive (profile, posts, comments, memberships, notifications, media, ' +
      'chains, a README and a JSON Schema per file); poll GET /v1/exports/{export} until it is ready. ' +
      'One at a time: 409 while one is queued or running.',
  })
  @ApiAcceptedResponse({ type: ExportRecord })
  @ApiConflictResponse({ description: 'An export of the caller is queued or running' })
  requestExport(@Principal() principal: RequestPrincipal): Promise<ExportRecord> {
    return this.service.request(principal.did);
  }

  @Get()
  @RateLimitClass('read')
  @IdentityProof()
  @AllowedWhileErasurePending()
  @ApiOperation({ summary: 'The caller’s exports, newest first' })
  @ApiOkResponse({ type: ExportListing })
  listExports(
    @Principal() principal: RequestPrincipal,
    @Query() query: PaginationQueryDto,
  ): Promise<ExportListing> {
    return this.service.list(principal.did, query);
  }

  @Get(':export')
  @RateLimitClass('read')
  @IdentityProof()
  @AllowedWhileErasurePending()
  @ApiParam({ name: 'export', example: 'export_0196f0a2c4d87e3f9b1a5c6d7e8f9012' })
  @ApiOperation({
    summary: 'One of the caller’s exports: its state, and when ready a signed URL of the archive',
  })
  @ApiOkResponse({ type: ExportRecord })
  getExport(
    @Principal() principal: RequestPrincipal,
    @Param('export') exportId: string,
  ): Promise<ExportRecord> {
    return this.service.show(principal.did, exportId);
  }

  @Get(':export/archive')
  @RateLimitClass('sensitive')
  @Anonymous()
  @ApiParam({ name: 'export', example: 'export_0196f0a2c4d87e3f9b1a5c6d7e8f9012' })
  @ApiOperation({ summary: 'A ready export’s zip archive, by the signed URL its export shows' })
  @ApiProduces('application/zip')
  @ApiOkResponse({ schema: { type: 'string', format: 'binary' } })
  @ApiForbiddenResponse({ description: 'Missing, invalid or expired signature' })
  downloadExport(
    @Param('export') exportId: string,
    @Query() query: SignedUrlQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<StreamableFile> {
    return this.service.download(exportId, query, response);
  }
}
