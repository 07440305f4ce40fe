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
import { EventAdminRecord, OccurrenceOverrideRecord } from '../dto/event-records.dto';
import { EventRequest, OccurrenceOverrideRequest } from '../dto/event-requests.dto';
import { EventAdminService } from '../event-admin.service';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';

/**
 * Event administration (design.md §9, §12). Admins of the space; a non-admin member gets 403, a
 * non-member of a space without a public profile the one 404.
 */
@ApiTags('spaces (administration)')
@Controller('spaces')
export class EventAdminController {
  constructor(private readonly events: EventAdminService) {}

  @Post(':id/events')
  @RateLimitClass('ordinary')
  @HttpCode(201)
  @IdentityProof()
  @ApiOperation({ summary: 'Create an event (timed or all-day, optionally recurring)' })
  @ApiCreatedResponse({ type: EventAdminRecord })
  createSpaceEvent(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Body() body: EventRequest,
  ): Promise<EventAdminRecord> {
    return this.events.create(principal, id, body);
  }

  @Put(':id/events/:eventId')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Replace an event; overrides of occurrences it no longer has are dropped' })
  @ApiOkResponse({ type: EventAdminRecord })
  updateSpaceEvent(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Param('eventId') eventId: string,
    @Body() body: EventRequest,
  ): Promise<EventAdminRecord> {
    return this.events.update(principal, id, eventId, body);
  }

  @Delete(':id/events/:eventId')
  @RateLimitClass('ordinary')
  @HttpCode(204)
  @IdentityProof()
  @ApiOperation({ summary: 'Delete an event and its occurrences' })
  @ApiNoContentResponse()
  deleteSpaceEvent(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Param('eventId') eventId: string,
  ): Promise<void> {
    return this.events.remove(principal, id, eventId);
  }

  @Put(':id/events/:eventId/occurrences/:recurrenceId')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Cover or cancel one occurrence' })
  @ApiOkResponse({ type: OccurrenceOverrideRecord })
  overrideSpaceEventOccurrence(
    @Principal() principal: RequestPrincipal,
    @Param('id') id: string,
    @Param('eventId') eventId: string,
    @Param('recurrenceId') recurrenceId: string,
    @Body() body: OccurrenceOverrideRequest,
  ): Promise<OccurrenceOverrideRecord> {
    return this.events.override(principal, id, eventId, recurrenceId, body);
  }
}
