import { formatEntityId } from '../../common/ids/entity-id';
import type { CalendarEvent } from '../entities/event.entity';

/**
 * An event's administration record without its cover, in the record's field order: the fields
 * before the cover and those after it. The admin record (events.presenter) puts the cover as a
 * media object between them, a space's export (EventExportService) its media id; both read the
 * event the same way.
 */
export function eventFieldsBeforeCover(event: CalendarEvent) {
  return {
    id: formatEntityId('evt', event.id),
    spaceId: formatEntityId('space', event.spaceId),
    title: event.title,
    description: event.description,
    location: event.location,
    type: event.type,
    mode: event.mode,
    url: event.url,
    isAllDay: event.isAllDay,
    startsAt: event.startsAt?.toISOString() ?? null,
    endsAt: event.endsAt?.toISOString() ?? null,
    timeZone: event.timeZone,
    startDate: event.startDate,
    endDate: event.endDate,
    rrule: event.rrule,
  };
}

export function eventFieldsAfterCover(event: CalendarEvent) {
  return {
    requiresTicket: event.requiresTicket,
    ticketProductIds: event.ticketProductIds,
    visibility: event.visibility,
    createdAt: event.createdAt.toISOString(),
    updatedAt: event.updatedAt.toISOString(),
  };
}
