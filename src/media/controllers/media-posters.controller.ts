import { Controller, Get, Param, Query, Req, Res, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Anonymous } from '../../common/auth/access.decorators';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { SignedUrlQuery } from '../../common/signing/signed-url-query.dto';
import { MediaFilesService } from '../services/media-files.service';

/** Posters of audio and video (cover art, a frame), signed like their media (design.md §11). */
@ApiTags('media')
@Controller('media-posters')
export class MediaPostersController {
  constructor(private readonly files: MediaFilesService) {}

  @Get(':media.jpg')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'The poster (JPEG) of a ready audio or video, by its signed URL' })
  @ApiProduces('image/jpeg')
  @ApiOkResponse({ schema: { type: 'string', format: 'binary' } })
  serveMediaPoster(
    @Param('media') mediaId: string,
    @Query() query: SignedUrlQuery,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<StreamableFile | undefined> {
    return this.files.servePoster(mediaId, query, request, response);
  }
}
