import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Anonymous } from '../../common/auth/access.decorators';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { EventListingsService } from '../services/event-listings.service';
import { EventOccurrenceListing, EventOccurrenceRecord } from '../dto/event-records.dto';
import { EventWindowQuery, SingleEventQuery } from '../dto/event-requests.dto';

const SPACE_PARAM = { name: 'space', description: 'subdomain, space id or space DID' };
const HIDDEN = 'no such space or event, no public profile, or no upcoming public occurrence (same bytes)';

/** A space's public events, read anonymously (api-spec.md per-route rules 3–5). */
@ApiTags('events')
@Controller('v1/spaces/:space/events')
export class PublicSpaceEventsController {
  constructor(private readonly events: EventListingsService) {}

  @Get()
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'The space’s public event occurrences in a window, earliest first' })
  @ApiParam(SPACE_PARAM)
  @ApiOkResponse({ type: EventOccurrenceListing })
  @ApiNotFoundResponse({ description: HIDDEN })
  listSpaceEvents(
    @Param('space') space: string,
    @Query() query: EventWindowQuery,
  ): Promise<EventOccurrenceListing> {
    return this.events.listSpace(space, query);
  }
  @Get(':event')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'One occurrence: the one occ names when live, else the soonest upcoming' })
  @ApiParam(SPACE_PARAM)
  @ApiParam({ name: 'event', description: 'event id' })
  @ApiOkResponse({ type: EventOccurrenceRecord })
  @ApiNotFoundResponse({ description: HIDDEN })
  getSpaceEvent(
    @Param('space') space: string,
    @Param('event') eventId: string,
    @Query() query: SingleEventQuery,
  ): Promise<EventOccurrenceRecord> {
    return this.events.getOne(space, eventId, query.occ);
  }
}
