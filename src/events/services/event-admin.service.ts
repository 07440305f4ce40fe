import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { invalidRequest, notFound, ValidationDetail } from '../../common/errors/api-error';
import { newUuid, parseEntityId } from '../../common/ids/entity-id';
import { DomainEvents } from '../../infrastructure/events/domain-events.service';
import { SpaceAccessService } from '../../spaces';
import { MediaErasureService, MediaLookupService } from '../../media';
import { scheduleOf } from '../domain/event-shape';
import { seriesOf } from '../domain/occurrences';
import { EventAdminRecord, OccurrenceOverrideRecord } from '../dto/event-records.dto';
import { EventRequest, OccurrenceOverrideRequest } from '../dto/event-requests.dto';
import { CalendarEvent } from '../entities/event.entity';
import { EventCanceled, EventCreated, EventUpdated } from '../events/event.events';
import { OccurrenceOverride } from '../entities/occurrence-override.entity';
import { EventsRepository } from '../repositories/events.repository';
import { OccurrencesRepository } from '../repositories/occurrences.repository';
import { EventTicketsService } from './event-tickets.service';
import { toEventAdminRecord, toOverrideRecord } from './events.presenter';
import { OccurrencesService } from './occurrences.service';

/**
 * The admins' event writes (design.md §9, §12): create, replace and delete events, and override
 * one occurrence. Each write and the rewrite of the event's materialized occurrences is one
 * transaction.
 */
@Injectable()
export class EventAdminService implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: EventsRepository,
    private readonly overrides: OccurrencesRepository,
    private readonly access: SpaceAccessService,
    private readonly occurrences: OccurrencesService,
    private readonly tickets: EventTicketsService,
    private readonly media: MediaLookupService,
    private readonly mediaErasure: MediaErasureService,
    private readonly domainEvents: DomainEvents,
  ) {}

  /** An erasure keeps the media these rows name (docs/decisions/0192-an-erasure-takes-the-persons-media-and-invites.md). */
  onModuleInit(): void {
    this.mediaErasure.registerReferences('events', (manager, ids) => this.events.mediaNamed(ids, manager));
  }

  async create(
    principal: RequestPrincipal,
    pathId: string,
    request: EventRequest,
  ): Promise<EventAdminRecord> {
    const { space } = await this.access.resolveAdmin(pathId, principal.did);
    const event = new CalendarEvent();
    event.id = newUuid();
    event.spaceId = space.id;
    await this.assign(event, request, principal.did);
    await this.dataSource.transaction(async (manager) => {
      await this.events.insertEvent(event, manager);
      await this.occurrences.rewrite(manager, event);
      await this.domainEvents.emit(manager, new EventCreated(event.spaceId, event.id, event.visibility));
    });
    return this.record(event.id);
  }

  /** Replaces the event; overrides whose recurrenceId the new schedule no longer has are dropped. */
  async update(
    principal: RequestPrincipal,
    pathId: string,
    eventId: string,
    request: EventRequest,
  ): Promise<EventAdminRecord> {
    const event = await this.adminEvent(principal, pathId, eventId);
    await this.assign(event, request, principal.did);
    await this.dataSource.transaction(async (manager) => {
      await this.events.saveEvent(event, manager);
      await this.dropLostOverrides(manager, event);
      await this.occurrences.rewrite(manager, event);
      await this.domainEvents.emit(manager, new EventUpdated(event.spaceId, event.id, event.visibility));
    });
    return this.record(event.id);
  }

  private async record(id: string): Promise<EventAdminRecord> {
    const event = await this.events.eventById(id);
    return toEventAdminRecord(event, await this.media.imageObject(event.coverMediaId));
  }

  async remove(principal: RequestPrincipal, pathId: string, eventId: string): Promise<void> {
    const event = await this.adminEvent(principal, pathId, eventId);
    // Occurrences and overrides go with it (ON DELETE CASCADE).
    await this.dataSource.transaction(async (manager) => {
      await this.occurrences.holdHorizon(manager);
      await this.events.deleteEvent(event.id, manager);
      await this.domainEvents.emit(manager, new EventCanceled(event.spaceId, event.id, event.visibility));
    });
  }

  /** Sets one occurrence's cover or cancels it; a recurrenceId the event does not have is 404. */
  async override(
    principal: RequestPrincipal,
    pathId: string,
    eventId: string,
    recurrenceId: string,
    request: OccurrenceOverrideRequest,
  ): Promise<OccurrenceOverrideRecord> {
    const event = await this.adminEvent(principal, pathId, eventId);
    if (!seriesOf(event).named(recurrenceId)) throw notFound();
    const coverMediaId = await this.media.ownImage('coverId', request.coverId, principal.did);
    const saved = await this.dataSource.transaction(async (manager) => {
      const existing = await this.overrides.override(event.id, recurrenceId, manager);
      const override =
        existing ??
        Object.assign(new OccurrenceOverride(), {
          eventId: event.id,
          recurrenceId,
          coverMediaId: null,
          canceled: false,
        });
      if (coverMediaId !== undefined) override.coverMediaId = coverMediaId;
      if (request.canceled !== undefined) override.canceled = request.canceled;
      await this.overrides.saveOverride(override, manager);
      await this.occurrences.rewrite(manager, event);
      return override;
    });
    return toOverrideRecord(saved, await this.media.imageObject(saved.coverMediaId));
  }

  private async adminEvent(
    principal: RequestPrincipal,
    pathId: string,
    eventId: string,
  ): Promise<CalendarEvent> {
    const { space } = await this.access.resolveAdmin(pathId, principal.did);
    const id = parseEntityId('evt', eventId);
    const event = id ? await this.events.eventOfSpace(id, space.id) : null;
    if (!event) throw notFound();
    return event;
  }

  /** Checks the request as a whole (400 with every detail) and writes it onto the event. */
  private async assign(event: CalendarEvent, request: EventRequest, callerDid: string): Promise<void> {
    const { schedule, series } = scheduleOf(request);
    const details: ValidationDetail[] = [];
    // A cover is a ready image of the caller (design.md §11 "Use"); absent or null: none.
    const cover = request.coverId
      ? await this.media.checkOwnImages([{ path: 'coverId', mediaId: request.coverId }], callerDid)
      : { ids: [null], details: [] };
    details.push(...cover.details);
    const productIds = request.ticketProductIds ?? [];
    if (new Set(productIds).size !== productIds.length) {
      details.push({ path: 'ticketProductIds', message: 'ticketProductIds must not repeat a product' });
    } else if (productIds.length > 0) {
      const known = new Set(await this.tickets.productsOf(event.spaceId, productIds));
      productIds.forEach((productId, index) => {
        if (!known.has(productId)) {
          details.push({ path: `ticketProductIds.${index}`, message: 'not a product of this space' });
        }
      });
    }
    if (details.length > 0) throw invalidRequest('Invalid request', details);
    Object.assign(event, {
      title: request.title,
      description: request.description ?? null,
      location: request.location ?? null,
      type: request.type,
      mode: request.mode ?? null,
      url: request.url ?? null,
      isAllDay: schedule.isAllDay,
      startsAt: schedule.startsAt,
      endsAt: schedule.endsAt,
      timeZone: schedule.timeZone,
      startDate: schedule.startDate,
      endDate: schedule.endDate,
      rrule: schedule.rrule,
      coverMediaId: cover.ids[0] ?? null,
      requiresTicket: request.requiresTicket ?? false,
      ticketProductIds: productIds,
      visibility: request.visibility,
      windowSpanMs: series.windowSpanMs,
      firstStart: series.firstStart(),
      lastEnd: series.lastEnd(),
    });
  }

  private async dropLostOverrides(manager: EntityManager, event: CalendarEvent): Promise<void> {
    const overrides = await this.overrides.overridesOf(event.id, manager);
    const series = seriesOf(event);
    const lost = overrides.filter((override) => !series.named(override.recurrenceId));
    for (const override of lost) {
      await this.overrides.deleteOverride(override.eventId, override.recurrenceId, manager);
    }
  }
}
