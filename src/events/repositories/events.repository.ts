import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { defineStatements } from '../../infrastructure/database/statements';
import type { EventWindow } from '../domain/event-window';
import type { Scope } from '../domain/occurrences';
import { CalendarEvent } from '../entities/event.entity';

/** Every column of an event, as `eventOfRow` maps them. */
const EVENT_ALL_COLUMNS =
  'id, space_id, title, description, location, type, mode, url, is_all_day, starts_at, ends_at, time_zone, ' +
  'start_date, end_date, rrule, cover_media_id, requires_ticket, ticket_product_ids, visibility, ' +
  'window_span_ms, first_start, last_end, created_at, updated_at';

const PUBLIC_EVENTS_OF_WINDOW = `SELECT ${EVENT_ALL_COLUMNS} FROM events WHERE visibility = 'public' AND first_start < $1 AND (last_end IS NULL OR last_end > $2)`;

/** The fixed SQL on `events` (docs/decisions/0131-a-repository-per-module.md). */
export const EVENTS_STATEMENTS = defineStatements('EventsRepository', {
  /** Which of these media ($1 uuid[]) a row still names: an erasure keeps those (0192-an-erasure-takes-the-persons-media-and-invites.md). */
  mediaNamed:
    'SELECT cover_media_id AS id FROM events WHERE cover_media_id = ANY($1::uuid[]) ' +
    'UNION SELECT cover_media_id FROM event_occurrence_overrides WHERE cover_media_id = ANY($1::uuid[])',
  /**
   * The public events that may occur in a window ($1 its end, $2 its start) outside the horizon,
   * of one space ($3) or of every discoverable space: their rules are expanded.
   */
  publicEventsOfWindow: {
    space: `${PUBLIC_EVENTS_OF_WINDOW} AND space_id = $3`,
    feed: `${PUBLIC_EVENTS_OF_WINDOW} AND EXISTS (SELECT 1 FROM "discoverable_spaces" "s" WHERE "s"."id" = events.space_id)`,
  },
  /** Every public event: a rebuilt horizon materializes them all. */
  publicEvents: `SELECT ${EVENT_ALL_COLUMNS} FROM events WHERE visibility = 'public'`,
  /** The public events that may occur after the horizon's end ($1): a moved horizon adds their new days. */
  publicEventsReaching: `SELECT ${EVENT_ALL_COLUMNS} FROM events WHERE visibility = 'public' AND (last_end IS NULL OR last_end > $1)`,
  /** A space's ($1) `public` and `members` events, a recurring series once: its `eventCountSummary`. */
  countOfSpace: `SELECT count(*)::int AS "n" FROM "events" WHERE "space_id" = $1 AND "visibility" IN ('public', 'members')`,
  /** The `public` events among $1 (uuids) that have not ended by $2: other modules' batch reads. */
  publicEventsOf: `SELECT ${EVENT_ALL_COLUMNS} FROM events WHERE id = ANY($1::uuid[]) AND visibility = 'public' AND (last_end IS NULL OR last_end > $2)`,
  /**
   * A page of a space's ($1) events, every visibility, by id, for its export ($2 rows; `after`: $3
   * the last id) on `idx_events_space` (docs/decisions/0218-space-export-events-products-releases.md).
   */
  exportPageOfSpace: {
    first: `SELECT ${EVENT_ALL_COLUMNS} FROM events WHERE space_id = $1 ORDER BY id LIMIT $2`,
    after: `SELECT ${EVENT_ALL_COLUMNS} FROM events WHERE space_id = $1 AND id > $3 ORDER BY id LIMIT $2`,
  },
  /**
   * The titles of the `public` events among the (event $1, space $2) pairs that have not ended by
   * $3 (a series without an end never has): what an entity link of a post names.
   */
  publicTitlesOf: `SELECT "e"."id", "e"."space_id", "e"."title" FROM "events" "e" JOIN unnest($1::uuid[], $2::uuid[]) AS "r"("id", "space_id") ON "e"."id" = "r"."id" AND "e"."space_id" = "r"."space_id" WHERE "e"."visibility" = 'public' AND ("e"."last_end" IS NULL OR "e"."last_end" > $3)`,
});

interface EventRow {
  id: string;
  space_id: string;
  title: string;
  description: string | null;
  location: string | null;
  type: CalendarEvent['type'];
  mode: CalendarEvent['mode'];
  url: string | null;
  is_all_day: boolean;
  starts_at: Date | null;
  ends_at: Date | null;
  time_zone: string | null;
  start_date: string | null;
  end_date: string | null;
  rrule: string | null;
  cover_media_id: string | null;
  requires_ticket: boolean;
  ticket_product_ids: string[];
  visibility: CalendarEvent['visibility'];
  /** bigint: node-postgres gives it as a string. */
  window_span_ms: string;
  first_start: Date;
  last_end: Date | null;
  created_at: Date;
  updated_at: Date;
}

const eventOfRow = (row: EventRow): CalendarEvent =>
  Object.assign(new CalendarEvent(), {
    id: row.id,
    spaceId: row.space_id,
    title: row.title,
    description: row.description,
    location: row.location,
    type: row.type,
    mode: row.mode,
    url: row.url,
    isAllDay: row.is_all_day,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    timeZone: row.time_zone,
    startDate: row.start_date,
    endDate: row.end_date,
    rrule: row.rrule,
    coverMediaId: row.cover_media_id,
    requiresTicket: row.requires_ticket,
    ticketProductIds: row.ticket_product_ids,
    visibility: row.visibility,
    windowSpanMs: Number(row.window_span_ms),
    firstStart: row.first_start,
    lastEnd: row.last_end,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });

/** Every statement on `events`. */
@Injectable()
export class EventsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insertEvent(event: CalendarEvent, runner: EntityManager): Promise<void> {
    await runner.insert(CalendarEvent, event);
  }

  async saveEvent(event: CalendarEvent, runner: EntityManager): Promise<void> {
    await runner.save(CalendarEvent, event);
  }

  async deleteEvent(id: string, runner: EntityManager): Promise<void> {
    await runner.delete(CalendarEvent, { id });
  }

  /** A page of the space's events by id, for the space's export. */
  async exportPageOfSpace(
    spaceId: string,
    after: string | null,
    limit: number,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<CalendarEvent[]> {
    const { exportPageOfSpace } = EVENTS_STATEMENTS;
    const rows = after
      ? await runner.query<EventRow[]>(exportPageOfSpace.after, [spaceId, limit, after])
      : await runner.query<EventRow[]>(exportPageOfSpace.first, [spaceId, limit]);
    return rows.map(eventOfRow);
  }

  eventById(id: string): Promise<CalendarEvent> {
    return this.dataSource.manager.findOneByOrFail(CalendarEvent, { id });
  }

  /** The event of the space, else null. */
  eventOfSpace(id: string, spaceId: string): Promise<CalendarEvent | null> {
    return this.dataSource.manager.findOne(CalendarEvent, { where: { id, spaceId } });
  }

  /** The public event of the space, else null. */
  publicEventOfSpace(id: string, spaceId: string): Promise<CalendarEvent | null> {
    return this.dataSource.manager.findOne(CalendarEvent, { where: { id, spaceId, visibility: 'public' } });
  }

  /** The public events that may occur in the window, of the scope. */
  async publicEventsOfWindow(scope: Scope, window: EventWindow): Promise<CalendarEvent[]> {
    const rows = await this.dataSource.query<EventRow[]>(
      'spaceId' in scope
        ? EVENTS_STATEMENTS.publicEventsOfWindow.space
        : EVENTS_STATEMENTS.publicEventsOfWindow.feed,
      [window.to, window.from, ...('spaceId' in scope ? [scope.spaceId] : [])],
    );
    return rows.map(eventOfRow);
  }

  /** Every public event, or (with `reaching`) those that may occur after it. */
  async publicEvents(runner: EntityManager, reaching?: Date): Promise<CalendarEvent[]> {
    const rows = reaching
      ? await runner.query<EventRow[]>(EVENTS_STATEMENTS.publicEventsReaching, [reaching])
      : await runner.query<EventRow[]>(EVENTS_STATEMENTS.publicEvents);
    return rows.map(eventOfRow);
  }

  /** The public events among `ids` that have not ended by `now`; one statement. */
  async publicEventsOf(ids: string[], now: Date): Promise<CalendarEvent[]> {
    const rows = await this.dataSource.query<EventRow[]>(EVENTS_STATEMENTS.publicEventsOf, [ids, now]);
    return rows.map(eventOfRow);
  }

  /** Space and title by event id of the public, not ended events among the pairs; one statement, none for none. */
  async publicTitlesOf(
    refs: readonly { eventId: string; spaceId: string }[],
    now: Date,
  ): Promise<Map<string, { spaceId: string; title: string }>> {
    if (refs.length === 0) return new Map();
    const rows = await this.dataSource.query<{ id: string; space_id: string; title: string }[]>(
      EVENTS_STATEMENTS.publicTitlesOf,
      [refs.map((ref) => ref.eventId), refs.map((ref) => ref.spaceId), now],
    );
    return new Map(rows.map((row) => [row.id, { spaceId: row.space_id, title: row.title }]));
  }

  /** A space's `public` and `members` events. */
  async countOfSpace(spaceId: string): Promise<number> {
    const [{ n }] = await this.dataSource.query<{ n: number }[]>(EVENTS_STATEMENTS.countOfSpace, [spaceId]);
    return n;
  }

  /** Which of these media an event or an occurrence's override still names. */
  async mediaNamed(mediaIds: string[], runner: EntityManager): Promise<string[]> {
    const rows = await runner.query<{ id: string }[]>(EVENTS_STATEMENTS.mediaNamed, [mediaIds]);
    return rows.map((row) => row.id);
  }
}
