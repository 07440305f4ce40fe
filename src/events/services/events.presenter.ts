import { formatEntityId } from '../../common/ids/entity-id';
import { MediaObject } from '../../media';
import {
  EventAdminRecord,
  EventOccurrenceRecord,
  EventSpaceBlock,
  OccurrenceOverrideRecord,
  TicketEntry,
} from '../dto/event-records.dto';
import { CalendarEvent } from '../entities/event.entity';
import { OccurrenceOverride } from '../entities/occurrence-override.entity';
import { eventFieldsAfterCover, eventFieldsBeforeCover } from '../domain/event-record-fields';
import { SpaceBlockSource } from '../domain/occurrences';
import { Occurrence } from '../domain/recurrence/occurrence-series';

export const toSpaceBlock = (space: SpaceBlockSource, avatarUrl: string | null = null): EventSpaceBlock => ({
  id: formatEntityId('space', space.id),
  did: space.did,
  domain: space.domain,
  displayName: space.displayName,
  avatarUrl,
});

const DAY_MS = 86_400_000;

/**
 * One occurrence as api-spec.md "Event occurrence" has it: the shape the event's `isAllDay`
 * selects, the other shape's fields null; `mode` null and `requiresTicket` false on an update
 * event; no rule, RSVPs or attendees. `cover` is the occurrence's own else the event's (a public image).
 */
export function toOccurrenceRecord(
  event: CalendarEvent,
  occurrence: Occurrence,
  space: EventSpaceBlock,
  tickets: TicketEntry[],
  cover: MediaObject | null,
): EventOccurrenceRecord {
  const isUpdate = event.type === 'update';
  const timed = !event.isAllDay;
  return {
    id: formatEntityId('evt', event.id),
    seriesId: formatEntityId('evt', event.id),
    recurrenceId: occurrence.recurrenceId,
    space,
    title: event.title,
    description: event.description,
    location: event.location,
    type: event.type,
    mode: isUpdate ? null : event.mode,
    url: event.url,
    interestCount: 0,
    requiresTicket: isUpdate ? false : event.requiresTicket,
    tickets,
    cover,
    isAllDay: event.isAllDay,
    startsAt: timed ? occurrence.start.toISOString() : null,
    endsAt: timed && occurrence.end ? occurrence.end.toISOString() : null,
    localStart: timed ? occurrence.recurrenceId : null,
    timeZone: timed ? event.timeZone : null,
    startDate: timed ? null : occurrence.recurrenceId,
    endDate:
      timed || !event.endDate
        ? null
        : new Date(occurrence.start.getTime() + Math.round(event.windowSpanMs / DAY_MS) * DAY_MS)
            .toISOString()
            .slice(0, 10),
  };
}

export const toEventAdminRecord = (event: CalendarEvent, cover: MediaObject | null): EventAdminRecord => ({
  ...eventFieldsBeforeCover(event),
  cover,
  ...eventFieldsAfterCover(event),
});

export const toOverrideRecord = (
  override: OccurrenceOverride,
  cover: MediaObject | null,
): OccurrenceOverrideRecord => ({
  eventId: formatEntityId('evt', override.eventId),
  recurrenceId: override.recurrenceId,
  cover,
  canceled: override.canceled,
});
