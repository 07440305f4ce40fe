import type { CalendarEvent } from '../entities/event.entity';
import { OccurrenceSeries } from './recurrence/occurrence-series';

/** The materialized span reaches this far back (recent windows stay on the table)… */
export const HORIZON_BEHIND_DAYS = 30;
/** …and this far ahead: the 366-day look-ahead plus a default 90-day window from there. */
export const HORIZON_AHEAD_DAYS = 460;

/** The span `event_occurrences` covers. */
export interface Horizon {
  from: Date;
  until: Date;
}

/** The occurrences of an event's schedule. */
export const seriesOf = (event: CalendarEvent) =>
  new OccurrenceSeries({
    isAllDay: event.isAllDay,
    startsAt: event.startsAt,
    endsAt: event.endsAt,
    timeZone: event.timeZone,
    startDate: event.startDate,
    endDate: event.endDate,
    rrule: event.rrule,
  });

/** Whose occurrences: one space's, or those of every publicly discoverable space. */
export type Scope = { spaceId: string } | { discoverable: true };

/** What the compact space block is made from (a public space's columns). */
export interface SpaceBlockSource {
  id: string;
  did: string;
  domain: string;
  displayName: string | null;
  avatarMediaId: string | null;
}

/** A listed occurrence before it is presented: with its event, and its space when known. */
export interface Slot {
  eventId: string;
  recurrenceId: string;
  start: Date;
  end: Date | null;
  event: CalendarEvent;
  space: SpaceBlockSource | null;
  /** The occurrence's own cover (an override), else null: the event's cover applies. */
  ownCoverMediaId: string | null;
}

/** A keyset position in a listing: the slot's (start, event, recurrenceId). */
export interface Seek {
  startMs: number;
  eventId: string;
  recurrenceId: string;
}

type SlotKey = Pick<Slot, 'start' | 'eventId' | 'recurrenceId'>;

/** The listing order; uuids and recurrenceIds compare as PostgreSQL does (bytes, "C"). */
export function compareSlots(a: SlotKey, b: SlotKey): number {
  return (
    a.start.getTime() - b.start.getTime() ||
    (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0) ||
    (a.recurrenceId < b.recurrenceId ? -1 : a.recurrenceId > b.recurrenceId ? 1 : 0)
  );
}
