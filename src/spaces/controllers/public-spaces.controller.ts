import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Anonymous } from '../../common/auth/access.decorators';
import { PublicSpace, SpaceCardListing } from '../dto/public-space-records.dto';
import { SpaceListingQuery } from '../dto/site-requests.dto';
import { PublicSpacesService } from '../services/public-spaces.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

const SPACE_PARAM = { name: 'space', description: 'subdomain, space id or space DID' };
const HIDDEN = 'no such space, or no public profile (same bytes for everything hidden)';

/** The anonymous space reads of api-spec.md: public profiles only, nothing private. */
@ApiTags('spaces')
@Controller('v1/spaces')
export class PublicSpacesController {
  constructor(private readonly spaces: PublicSpacesService) {}

  @Get()
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'Spaces with a public profile, most recently active first' })
  @ApiOkResponse({ type: SpaceCardListing })
  listPublicSpaces(@Query() query: SpaceListingQuery): Promise<SpaceCardListing> {
    return this.spaces.list(query);
  }

  @Get(':space')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'A space’s public profile' })
  @ApiParam(SPACE_PARAM)
  @ApiOkResponse({ type: PublicSpace })
  @ApiNotFoundResponse({ description: HIDDEN })
  getPublicSpace(@Param('space') space: string): Promise<PublicSpace> {
    return this.spaces.get(space);
  }
}
