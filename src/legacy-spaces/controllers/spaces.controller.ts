import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
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
import {
  ClaimDomainRequest,
  CreateSpaceRequest,
  DomainStatusRecord,
  PublicConfigRequest,
  SpaceRecord,
  SpacesService,
  UpdateSpaceRequest,
} from '../../spaces';

/** The legacy space records: create, read, change, delete, public configuration, subdomain. */
@ApiTags('spaces (legacy)')
@Controller('spaces')
export class SpacesController {
  constructor(private readonly spaces: SpacesService) {}

  @Post()
  @RateLimitClass('create')
  @HttpCode(201)
  @IdentityProof()
  @ApiOperation({ summary: 'Create a space: closed and private, the caller its owner (first admin)' })
  @ApiCreatedResponse({ type: SpaceRecord })
  createLegacySpace(
    @Principal() principal: RequestPrincipal,
    @Body() body: CreateSpaceRequest,
  ): Promise<SpaceRecord> {
    return this.spaces.create(principal, body);
  }

  @Get('domain/:domain/status')
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'Whether a subdomain is available, taken or invalid' })
  @ApiOkResponse({ type: DomainStatusRecord })
  getLegacyDomainStatus(@Param('domain') domain: string): Promise<DomainStatusRecord> {
    return this.spaces.domainStatus(domain);
  }

  @Get(':space')
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'A space with the caller’s role' })
  @ApiOkResponse({ type: SpaceRecord })
  getLegacySpace(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
  ): Promise<SpaceRecord> {
    return this.spaces.get(principal, space);
  }

  @Put(':space')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Change name, description and images (admins)' })
  @ApiOkResponse({ type: SpaceRecord })
  updateLegacySpace(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Body() body: UpdateSpaceRequest,
  ): Promise<SpaceRecord> {
    return this.spaces.update(principal, space, body);
  }

  @Delete(':space')
  @RateLimitClass('ordinary')
  @HttpCode(204)
  @IdentityProof()
  @ApiOperation({ summary: 'Soft-delete a space (admins); afterwards every route answers 404' })
  @ApiNoContentResponse()
  deleteLegacySpace(@Principal() principal: RequestPrincipal, @Param('space') space: string): Promise<void> {
    return this.spaces.remove(principal, space);
  }

  @Put(':space/public-config')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Set the public profile switch and join mode (admins); open requires isPublic' })
  @ApiOkResponse({ type: SpaceRecord })
  setLegacySpacePublicConfig(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Body() body: PublicConfigRequest,
  ): Promise<SpaceRecord> {
    return this.spaces.setPublicConfig(principal, space, body);
  }

  @Put(':space/domain')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Claim a subdomain (admins)' })
  @ApiOkResponse({ type: SpaceRecord })
  claimLegacySpaceDomain(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Body() body: ClaimDomainRequest,
  ): Promise<SpaceRecord> {
    return this.spaces.claimDomain(principal, space, body);
  }
}
