import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Gated } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { MediaStatusResponse, MintedMedia, MintMediaRequest } from '../dto/space-media.dto';
import { SpaceMediaService } from '../services/space-media.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

/** The v1 media routes of a space (api-spec.md "Writes", design.md §11 "v1 routes"). */
@ApiTags('media')
@Controller('v1/spaces/:space/media')
export class SpaceMediaController {
  constructor(private readonly media: SpaceMediaService) {}

  @Post()
  @RateLimitClass('create')
  @Gated(['write:posts', 'write:comments'], { anyOf: true, spaceParam: 'space' })
  @ApiOperation({ summary: 'Mints an upload: PUT the bytes at uploadUrl with uploadHeaders' })
  @ApiCreatedResponse({ type: MintedMedia })
  mintSpaceMedia(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Body() body: MintMediaRequest,
  ): Promise<MintedMedia> {
    return this.media.mint(principal, space, body);
  }

  @Get(':media')
  @RateLimitClass('read')
  @Gated(['write:posts', 'write:comments'], { anyOf: true, spaceParam: 'space' })
  @ApiOperation({ summary: 'Whether an upload landed: pending, ready or failed (uploader only)' })
  @ApiOkResponse({ type: MediaStatusResponse })
  getSpaceMediaStatus(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('media') mediaId: string,
  ): Promise<MediaStatusResponse> {
    return this.media.status(principal, space, mediaId);
  }
}
