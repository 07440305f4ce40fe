import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Anonymous } from '../../common/auth/access.decorators';
import { EventOccurrenceListing, EventOccurrenceRecord } from '../dto/event-records.dto';
import { EventWindowQuery, SingleEventQuery } from '../dto/event-requests.dto';
import { EventListingsService } from '../event-listings.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

const SPACE_PARAM = { name: 'space', description: 'subdomain, space id or space DID' };
const HIDDEN = 'no such space or event, no public profile, or no upcoming public occurrence (same bytes)';

/** The anonymous event reads of api-spec.md (per-route rules 3–5). */
@ApiTags('events')
@Controller('v1')
export class PublicEventsController {
  constructor(private readonly events: EventListingsService) {}

  @Get('spaces/:space/events')
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

  @Get('spaces/:space/events/:eventId')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'One occurrence: the one occ names when live, else the soonest upcoming' })
  @ApiParam(SPACE_PARAM)
  @ApiParam({ name: 'eventId', description: 'event id' })
  @ApiOkResponse({ type: EventOccurrenceRecord })
  @ApiNotFoundResponse({ description: HIDDEN })
  getSpaceEvent(
    @Param('space') space: string,
    @Param('eventId') eventId: string,
    @Query() query: SingleEventQuery,
  ): Promise<EventOccurrenceRecord> {
    return this.events.getOne(space, eventId, query.occ);
  }

  @Get('events/upcoming')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'Public occurrences across publicly discoverable spaces, earliest first' })
  @ApiOkResponse({ type: EventOccurrenceListing })
  listUpcomingEvents(@Query() query: EventWindowQuery): Promise<EventOccurrenceListing> {
    return this.events.upcoming(query);
  }
}
