import { Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiConsumes,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiPayloadTooLargeResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import type { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { SpaceImportRecord } from '../dto/space-import.dto';
import { SpaceImportsService } from '../services/space-imports.service';

const IMPORT_PARAM = { name: 'import', example: 'import_0196f0a2c4d87e3f9b1a5c6d7e8f9012' };

/**
 * Space imports (issue 35 item 5; docs/decisions/0221-space-import-a-durable-job-through-the-owning-modules.md):
 * bare identity proof of the person who becomes the new space's owner, as the exports (an app's
 * credential never creates a community from an archive).
 */
@ApiTags('imports')
@Controller('v1/spaces/imports')
export class SpaceImportsController {
  constructor(private readonly service: SpaceImportsService) {}

  @Post()
  @HttpCode(202)
  @RateLimitClass('sensitive')
  @IdentityProof()
  @ApiOperation({
    summary: 'Imports a space export’s archive as a new space owned by the caller',
    description:
      'The body is the zip archive of a space export (Content-Type application/zip, at most ' +
      'IMPORT_MAX_ARCHIVE_BYTES). A job reads and validates it (its chains/, when present, verified with ' +
      'the protocol’s rules, every public post against its chain’s document), then creates the space with its settings, ' +
      'topics, pages, posts, products, releases and events, and copies its images, files, audio and ' +
      'video as the caller’s uploads (audio and video probed as they are stored, ready at once); ' +
      'poll GET /v1/spaces/imports/{import} until it is done or failed. ' +
      'Members are not imported: they join again.',
  })
  @ApiConsumes('application/zip')
  @ApiBody({ schema: { type: 'string', format: 'binary' } })
  @ApiAcceptedResponse({ type: SpaceImportRecord })
  @ApiPayloadTooLargeResponse({ description: 'The archive is larger than IMPORT_MAX_ARCHIVE_BYTES' })
  requestSpaceImport(
    @Principal() principal: RequestPrincipal,
    @Req() request: Request,
  ): Promise<SpaceImportRecord> {
    return this.service.request(principal.did, request);
  }

  @Get(':import')
  @RateLimitClass('read')
  @IdentityProof()
  @ApiParam(IMPORT_PARAM)
  @ApiOperation({ summary: 'One of the caller’s imports: its state, the new space once done' })
  @ApiOkResponse({ type: SpaceImportRecord })
  @ApiNotFoundResponse({ description: 'No such import of the caller' })
  getSpaceImport(
    @Principal() principal: RequestPrincipal,
    @Param('import') importId: string,
  ): Promise<SpaceImportRecord> {
    return this.service.show(principal.did, importId);
  }
}
