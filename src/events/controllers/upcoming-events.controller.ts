import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Anonymous } from '../../common/auth/access.decorators';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { EventListingsService } from '../services/event-listings.service';
import { EventOccurrenceListing } from '../dto/event-records.dto';
import { EventWindowQuery } from '../dto/event-requests.dto';

/** The upcoming public events of every publicly discoverable space, read anonymously (api-spec.md). */
@ApiTags('events')
@Controller('v1/events')
export class UpcomingEventsController {
  constructor(private readonly events: EventListingsService) {}

  @Get('upcoming')
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'Public occurrences across publicly discoverable spaces, earliest first' })
  @ApiOkResponse({ type: EventOccurrenceListing })
  listUpcomingEvents(@Query() query: EventWindowQuery): Promise<EventOccurrenceListing> {
    return this.events.upcoming(query);
  }
}
