import { Body, Controller, Delete, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { ReleaseAdminRecord } from '../dto/store-records.dto';
import { ReleaseRequest } from '../dto/store-requests.dto';
import { ReleasesService } from '../services/releases.service';

/**
 * Release administration (design.md §9, §13). Admins of the space; a non-admin member gets 403, a
 * non-member of a space without a public profile the one 404.
 */
@ApiTags('store (administration)')
@Controller('spaces/:space/releases')
export class ReleasesController {
  constructor(private readonly releases: ReleasesService) {}

  @Post()
  @RateLimitClass('ordinary')
  @HttpCode(201)
  @IdentityProof()
  @ApiOperation({ summary: 'Create a release' })
  @ApiCreatedResponse({ type: ReleaseAdminRecord })
  createStoreRelease(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Body() body: ReleaseRequest,
  ): Promise<ReleaseAdminRecord> {
    return this.releases.create(principal, space, body);
  }
  @Put(':release')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Change a release' })
  @ApiOkResponse({ type: ReleaseAdminRecord })
  updateStoreRelease(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('release') releaseId: string,
    @Body() body: ReleaseRequest,
  ): Promise<ReleaseAdminRecord> {
    return this.releases.update(principal, space, releaseId, body);
  }
  @Delete(':release')
  @RateLimitClass('ordinary')
  @HttpCode(204)
  @IdentityProof()
  @ApiOperation({ summary: 'Delete a release (frees its slug)' })
  @ApiNoContentResponse()
  deleteStoreRelease(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('release') releaseId: string,
  ): Promise<void> {
    return this.releases.remove(principal, space, releaseId);
  }
}
