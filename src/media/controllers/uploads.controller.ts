import { Controller, HttpCode, Param, Put, Query, Req } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { Anonymous } from '../../common/auth/access.decorators';
import { LegacyMediaInfo } from '../dto/legacy-media.dto';
import { MediaStatusResponse } from '../dto/space-media.dto';
import { SignedUrlQuery } from '../../common/signing/signed-url-query.dto';
import { UploadService } from '../services/upload.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

/** The minted upload URL (design.md §11 "Upload"): its signature is the whole capability. */
@ApiTags('media')
@ApiExtraModels(MediaStatusResponse, LegacyMediaInfo)
@Controller('uploads')
export class UploadsController {
  constructor(private readonly uploads: UploadService) {}

  @Put(':media')
  @RateLimitClass('ordinary')
  @HttpCode(200)
  @Anonymous()
  @ApiOperation({
    summary:
      'Receives the bytes of a minted media, streamed to storage (Content-Type as declared; legacy: Content-Disposition too)',
  })
  @ApiConsumes('application/octet-stream')
  @ApiBody({ schema: { type: 'string', format: 'binary' } })
  @ApiOkResponse({
    description: 'v1 media: the status; legacy media: the media info',
    schema: {
      oneOf: [{ $ref: getSchemaPath(MediaStatusResponse) }, { $ref: getSchemaPath(LegacyMediaInfo) }],
    },
  })
  uploadMedia(
    @Param('media') mediaId: string,
    @Query() query: SignedUrlQuery,
    @Req() request: Request,
  ): Promise<MediaStatusResponse | LegacyMediaInfo> {
    return this.uploads.receive(mediaId, query, request);
  }
}
