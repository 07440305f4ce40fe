import { Controller, Get, Param, Query, Req, Res, StreamableFile } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiPartialContentResponse,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Anonymous } from '../../common/auth/access.decorators';
import { MediaFilesService } from '../services/media-files.service';
import { SignedUrlQuery } from '../../common/signing/signed-url-query.dto';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

/** Audio, video and files by their signed URL (design.md §11 "URLs"). */
@ApiTags('media')
@Controller('media-files')
export class MediaFilesController {
  constructor(private readonly files: MediaFilesService) {}

  @Get(':media/:filename')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'A ready audio, video or file by its signed URL; honours Range' })
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({ schema: { type: 'string', format: 'binary' } })
  @ApiPartialContentResponse({
    description: 'the range asked for',
    schema: { type: 'string', format: 'binary' },
  })
  serveMediaFile(
    @Param('media') mediaId: string,
    @Param('filename') filename: string,
    @Query() query: SignedUrlQuery,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<StreamableFile | undefined> {
    return this.files.serve(mediaId, filename, query, request, response);
  }
}
