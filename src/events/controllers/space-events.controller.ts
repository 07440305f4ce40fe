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
import { EventAdminRecord } from '../dto/event-records.dto';
import { EventRequest } from '../dto/event-requests.dto';
import { EventAdminService } from '../services/event-admin.service';

/**
 * Event administration (design.md §9, §12). Admins of the space; a non-admin member gets 403, a
 * non-member of a space without a public profile the one 404.
 */
@ApiTags('spaces (administration)')
@Controller('spaces/:space/events')
export class SpaceEventsController {
  constructor(private readonly events: EventAdminService) {}

  @Post()
  @RateLimitClass('ordinary')
  @HttpCode(201)
  @IdentityProof()
  @ApiOperation({ summary: 'Create an event (timed or all-day, optionally recurring)' })
  @ApiCreatedResponse({ type: EventAdminRecord })
  createSpaceEvent(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Body() body: EventRequest,
  ): Promise<EventAdminRecord> {
    return this.events.create(principal, space, body);
  }
  @Put(':event')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Replace an event; overrides of occurrences it no longer has are dropped' })
  @ApiOkResponse({ type: EventAdminRecord })
  updateSpaceEvent(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('event') eventId: string,
    @Body() body: EventRequest,
  ): Promise<EventAdminRecord> {
    return this.events.update(principal, space, eventId, body);
  }
  @Delete(':event')
  @RateLimitClass('ordinary')
  @HttpCode(204)
  @IdentityProof()
  @ApiOperation({ summary: 'Delete an event and its occurrences' })
  @ApiNoContentResponse()
  deleteSpaceEvent(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('event') eventId: string,
  ): Promise<void> {
    return this.events.remove(principal, space, eventId);
  }
}
