import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CalendarEvent } from './entities/event.entity';
import { SpaceBlockSource } from './event-records';
import { EventWindow, WALK_LIMIT } from './event-window';
import { OccurrenceStore, seriesOf } from './occurrence-store';

/** Whose occurrences: one space's, or those of every publicly discoverable space. */
export type Scope = { spaceId: string } | { discoverable: true };

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

/** What a record shows of an event (the columns `toOccurrenceRecord` reads). */
const EVENT_COLUMNS = [
  'space_id',
  'title',
  'description',
  'location',
  'type',
  'mode',
  'url',
  'is_all_day',
  'time_zone',
  'end_date',
  'requires_ticket',
  'ticket_product_ids',
  'window_span_ms',
  'cover_media_id',
]
  .map((column) => `"e"."${column}"`)
  .join(', ');

interface SlotRow {
  event_id: string;
  recurrence_id: string;
  starts_at: Date;
  ends_at: Date | null;
  space_id: string;
  title: string;
  description: string | null;
  location: string | null;
  type: CalendarEvent['type'];
  mode: CalendarEvent['mode'];
  url: string | null;
  is_all_day: boolean;
  time_zone: string | null;
  end_date: string | null;
  requires_ticket: boolean;
  ticket_product_ids: string[];
  window_span_ms: string;
  cover_media_id: string | null;
  occurrence_cover_media_id: string | null;
  did?: string;
  domain?: string;
  display_name?: string | null;
  avatar_media_id?: string | null;
}

const eventOfRow = (row: SlotRow): CalendarEvent =>
  Object.assign(new CalendarEvent(), {
    id: row.event_id,
    spaceId: row.space_id,
    title: row.title,
    description: row.description,
    location: row.location,
    type: row.type,
    mode: row.mode,
    url: row.url,
    isAllDay: row.is_all_day,
    timeZone: row.time_zone,
    endDate: row.end_date,
    requiresTicket: row.requires_ticket,
    ticketProductIds: row.ticket_product_ids,
    windowSpanMs: Number(row.window_span_ms),
    coverMediaId: row.cover_media_id,
  });

export interface Seek {
  startMs: number;
  eventId: string;
  recurrenceId: string;
}

const DISCOVERABLE = 'EXISTS (SELECT 1 FROM "discoverable_spaces" "d" WHERE "d"."id" = "o"."space_id")';

/** The horizon and the longest event (no occurrence lasts longer), in one round trip. */
export const OCCURRENCE_STATE = `SELECT "h"."materialized_from" AS "from", "h"."materialized_until" AS "until",
              (SELECT max("window_span_ms") FROM "events") AS "span"
       FROM (SELECT 1) "one" LEFT JOIN "event_occurrence_horizon" "h" ON "h"."id" = 1`;

/**
 * The statement of one page from the table: the page's occurrences by the index after the keyset
 * position (from `lower`, the window's start less the longest event), then their events, their
 * own covers (and, for the feed, their spaces' compact blocks) joined in. Fixed text per scope,
 * direction and seek, shared with the bench twin (bench/twin/events.ts).
 */
export function occurrencePageStatement(
  scope: Scope,
  window: EventWindow,
  lower: Date,
  seek: Seek | null,
  backward: boolean,
  count: number,
): { text: string; params: unknown[] } {
  const params: unknown[] = [lower, window.to, window.from];
  const where = [
    '"o"."starts_at" >= $1',
    '"o"."starts_at" < $2',
    '("o"."ends_at" > $3 OR ("o"."ends_at" IS NULL AND "o"."starts_at" >= $3))',
  ];
  if ('spaceId' in scope) {
    params.push(scope.spaceId);
    where.push(`"o"."space_id" = $${params.length}`);
  } else {
    where.push(DISCOVERABLE);
  }
  if (seek) {
    params.push(new Date(seek.startMs), seek.eventId, seek.recurrenceId);
    const n = params.length;
    where.push(
      `("o"."starts_at", "o"."event_id", "o"."recurrence_id") ${backward ? '<' : '>'} ($${n - 2}, $${n - 1}::uuid, $${n})`,
    );
  }
  const direction = backward ? 'DESC' : 'ASC';
  const order = `"o"."starts_at" ${direction}, "o"."event_id" ${direction}, "o"."recurrence_id" ${direction}`;
  params.push(count);
  return {
    text: `SELECT "o"."event_id", "o"."recurrence_id", "o"."starts_at", "o"."ends_at", ${EVENT_COLUMNS},
              "v"."cover_media_id" AS "occurrence_cover_media_id"
              ${'spaceId' in scope ? '' : ', "s"."did", "s"."domain", "s"."display_name", "s"."avatar_media_id"'}
       FROM (SELECT * FROM "event_occurrences" "o" WHERE ${where.join(' AND ')} ORDER BY ${order}
             LIMIT $${params.length}) "o"
       JOIN "events" "e" ON "e"."id" = "o"."event_id"
       LEFT JOIN "event_occurrence_overrides" "v"
         ON "v"."event_id" = "o"."event_id" AND "v"."recurrence_id" = "o"."recurrence_id"
       ${'spaceId' in scope ? '' : 'JOIN "discoverable_spaces" "s" ON "s"."id" = "o"."space_id"'}
       ORDER BY ${order}`,
    params,
  };
}

/**
 * The occurrences of a window in (start, event id, recurrenceId) order, after a keyset position:
 * one indexed range scan of `event_occurrences` when the window lies inside its horizon, else
 * (a window far in the past or future) the exact expansion of the candidate events' rules,
 * bounded by the walk's 500.
 */
@Injectable()
export class OccurrenceSlots {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly store: OccurrenceStore,
  ) {}

  async find(
    scope: Scope,
    window: EventWindow,
    seek: Seek | null,
    backward: boolean,
    count: number,
  ): Promise<Slot[]> {
    // One round trip: the horizon, and the longest event (no occurrence lasts longer, so the
    // scan may start that much before `from`).
    const [state]: { from: Date | null; until: Date | null; span: string | null }[] =
      await this.dataSource.query(OCCURRENCE_STATE);
    if (state.from && state.until && window.from >= state.from && window.to <= state.until) {
      const lower = new Date(window.from.getTime() - Number(state.span ?? 0));
      return this.fromTable(scope, window, lower, seek, backward, count);
    }
    return this.expanded(scope, window, seek, backward, count);
  }

  private async fromTable(
    scope: Scope,
    window: EventWindow,
    lower: Date,
    seek: Seek | null,
    backward: boolean,
    count: number,
  ): Promise<Slot[]> {
    const statement = occurrencePageStatement(scope, window, lower, seek, backward, count);
    const rows: SlotRow[] = await this.dataSource.query(statement.text, statement.params);
    return rows.map((row) => ({
      eventId: row.event_id,
      recurrenceId: row.recurrence_id,
      start: row.starts_at,
      end: row.ends_at,
      event: eventOfRow(row),
      ownCoverMediaId: row.occurrence_cover_media_id,
      space: row.did
        ? {
            id: row.space_id,
            did: row.did,
            domain: row.domain!,
            displayName: row.display_name ?? null,
            avatarMediaId: row.avatar_media_id ?? null,
          }
        : null,
    }));
  }

  private async expanded(
    scope: Scope,
    window: EventWindow,
    seek: Seek | null,
    backward: boolean,
    count: number,
  ): Promise<Slot[]> {
    const query = this.dataSource.manager
      .getRepository(CalendarEvent)
      .createQueryBuilder('event')
      .where("event.visibility = 'public'")
      .andWhere('event.firstStart < :to', { to: window.to })
      .andWhere('(event.lastEnd IS NULL OR event.lastEnd > :from)', { from: window.from });
    if ('spaceId' in scope) query.andWhere('event.spaceId = :spaceId', { spaceId: scope.spaceId });
    else query.andWhere('EXISTS (SELECT 1 FROM "discoverable_spaces" "s" WHERE "s"."id" = event.space_id)');
    const events = await query.getMany();
    const eventIds = events.map((event) => event.id);
    const [canceled, covers] = await Promise.all([
      this.store.canceledOf(eventIds),
      this.store.coversOf(eventIds),
    ]);
    const all: Slot[] = [];
    for (const event of events) {
      const skipped = canceled.get(event.id);
      for (const occurrence of seriesOf(event).between(
        window.from,
        window.to,
        WALK_LIMIT + (skipped?.size ?? 0),
      )) {
        if (skipped?.has(occurrence.recurrenceId)) continue;
        all.push({
          event,
          space: null,
          ownCoverMediaId: covers.get(`${event.id}/${occurrence.recurrenceId}`) ?? null,
          eventId: event.id,
          recurrenceId: occurrence.recurrenceId,
          start: occurrence.start,
          end: occurrence.end,
        });
      }
    }
    all.sort(compareSlots);
    const walk = all.slice(0, WALK_LIMIT);
    const position = seek
      ? { eventId: seek.eventId, recurrenceId: seek.recurrenceId, start: new Date(seek.startMs) }
      : null;
    const after = position
      ? walk.filter((slot) =>
          backward ? compareSlots(slot, position) < 0 : compareSlots(slot, position) > 0,
        )
      : walk;
    return backward ? after.reverse().slice(0, count) : after.slice(0, count);
  }
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
