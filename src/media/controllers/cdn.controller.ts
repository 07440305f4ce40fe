import { Controller, Get, Param, Query, Req, Res, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Anonymous } from '../../common/auth/access.decorators';
import { ImageTransformQuery } from '../dto/image-transform-query.dto';
import { CdnService } from '../services/cdn.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

/** Images by their permanent public URL (design.md §11 "URLs"). */
@ApiTags('media')
@Controller('cdn')
export class CdnController {
  constructor(private readonly cdn: CdnService) {}

  @Get(':media/:filename')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({
    summary: 'A ready image, as uploaded or transformed; cacheable for a year (public, immutable)',
  })
  @ApiProduces('image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif')
  @ApiOkResponse({ schema: { type: 'string', format: 'binary' } })
  serveImage(
    @Param('media') mediaId: string,
    @Param('filename') filename: string,
    @Query() query: ImageTransformQuery,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<StreamableFile | undefined> {
    return this.cdn.serve(mediaId, filename, query, request, response);
  }
}
