import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { LegacyMediaInfo, LegacyMintedMedia, LegacyMintMediaRequest } from '../dto/legacy-media.dto';
import { LegacyMediaService } from '../services/legacy-media.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

/** The legacy media routes (api-spec.md "Legacy namespaces": images for avatars, banners, covers). */
@ApiTags('media (legacy)')
@Controller('media')
export class LegacyMediaController {
  constructor(private readonly media: LegacyMediaService) {}

  @Post()
  @RateLimitClass('create')
  @HttpCode(201)
  @IdentityProof()
  @ApiOperation({ summary: 'Mints an image upload: PUT the bytes with Content-Type and Content-Disposition' })
  @ApiCreatedResponse({ type: LegacyMintedMedia })
  mintLegacyMedia(
    @Principal() principal: RequestPrincipal,
    @Body() body: LegacyMintMediaRequest,
  ): Promise<LegacyMintedMedia> {
    return this.media.mint(principal, body);
  }

  @Get(':media')
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'The caller’s own uploaded image' })
  @ApiOkResponse({ type: LegacyMediaInfo })
  getLegacyMedia(
    @Principal() principal: RequestPrincipal,
    @Param('media') mediaId: string,
  ): Promise<LegacyMediaInfo> {
    return this.media.info(principal, mediaId);
  }
}
