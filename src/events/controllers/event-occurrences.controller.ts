import { Body, Controller, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { OccurrenceOverrideRecord } from '../dto/event-records.dto';
import { OccurrenceOverrideRequest } from '../dto/event-requests.dto';
import { EventAdminService } from '../services/event-admin.service';

/**
 * One occurrence of an event, administered (design.md §12): its cover, or its cancelation. Admins
 * of the space, as for the event.
 */
@ApiTags('spaces (administration)')
@Controller('spaces/:space/events/:event/occurrences')
export class EventOccurrencesController {
  constructor(private readonly events: EventAdminService) {}

  @Put(':occurrence')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Cover or cancel one occurrence' })
  @ApiOkResponse({ type: OccurrenceOverrideRecord })
  overrideSpaceEventOccurrence(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('event') eventId: string,
    @Param('occurrence') recurrenceId: string,
    @Body() body: OccurrenceOverrideRequest,
  ): Promise<OccurrenceOverrideRecord> {
    return this.events.override(principal, space, eventId, recurrenceId, body);
  }
}
