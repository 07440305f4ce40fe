import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { defineStatements } from '../infrastructure/database/statements';
import type { EventWindow } from './domain/event-window';
import type { Scope, Seek, Slot } from './domain/occurrences';
import { CalendarEvent } from './entities/event.entity';
import { EventOccurrence } from './entities/event-occurrence.entity';
import { OccurrenceHorizon } from './entities/occurrence-horizon.entity';
import { OccurrenceOverride } from './entities/occurrence-override.entity';

/** The one row of `event_occurrence_horizon`. */
const HORIZON_ROW = 1;

/** Every column of an event, as `eventOfRow` maps them. */
const EVENT_ALL_COLUMNS =
  'id, space_id, title, description, location, type, mode, url, is_all_day, starts_at, ends_at, time_zone, ' +
  'start_date, end_date, rrule, cover_media_id, requires_ticket, ticket_product_ids, visibility, ' +
  'window_span_ms, first_start, last_end, created_at, updated_at';

/** What a listed occurrence shows of its event (the columns `toOccurrenceRecord` reads). */
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

const DISCOVERABLE = 'EXISTS (SELECT 1 FROM "discoverable_spaces" "d" WHERE "d"."id" = "o"."space_id")';

/**
 * The pages of occurrences from the table, for one space ($4) or for every discoverable space:
 * the page's occurrences by the index after the keyset position (from $1, the window's start
 * less the longest event, to $2, the window's end; ending after $3, the window's start), then
 * their events, their own covers (and, for the feed, their spaces' compact blocks) joined in.
 * `after` and `before` seek past a position (three parameters), `before` reading backward; the
 * count is the last parameter. Composed once, when the statements are declared.
 */
function occurrencePages(feed: boolean) {
  const fixed = feed ? 3 : 4;
  const page = (seek: '>' | '<' | null, direction: 'ASC' | 'DESC') => {
    const where = [
      '"o"."starts_at" >= $1',
      '"o"."starts_at" < $2',
      '("o"."ends_at" > $3 OR ("o"."ends_at" IS NULL AND "o"."starts_at" >= $3))',
      feed ? DISCOVERABLE : '"o"."space_id" = $4',
      ...(seek
        ? [
            `("o"."starts_at", "o"."event_id", "o"."recurrence_id") ${seek} ($${fixed + 1}, $${fixed + 2}::uuid, $${fixed + 3})`,
          ]
        : []),
    ];
    const order = `"o"."starts_at" ${direction}, "o"."event_id" ${direction}, "o"."recurrence_id" ${direction}`;
    return `SELECT "o"."event_id", "o"."recurrence_id", "o"."starts_at", "o"."ends_at", ${EVENT_COLUMNS},
              "v"."cover_media_id" AS "occurrence_cover_media_id"
              ${feed ? ', "s"."did", "s"."domain", "s"."display_name", "s"."avatar_media_id"' : ''}
       FROM (SELECT * FROM "event_occurrences" "o" WHERE ${where.join(' AND ')} ORDER BY ${order}
             LIMIT $${fixed + (seek ? 4 : 1)}) "o"
       JOIN "events" "e" ON "e"."id" = "o"."event_id"
       LEFT JOIN "event_occurrence_overrides" "v"
         ON "v"."event_id" = "o"."event_id" AND "v"."recurrence_id" = "o"."recurrence_id"
       ${feed ? 'JOIN "discoverable_spaces" "s" ON "s"."id" = "o"."space_id"' : ''}
       ORDER BY ${order}`;
  };
  return { first: page(null, 'ASC'), after: page('>', 'ASC'), before: page('<', 'DESC') };
}

const PUBLIC_EVENTS_OF_WINDOW = `SELECT ${EVENT_ALL_COLUMNS} FROM events WHERE visibility = 'public' AND first_start < $1 AND (last_end IS NULL OR last_end > $2)`;

/** The events module's fixed SQL (docs/decisions/0131-a-repository-per-module.md). */
export const EVENTS_STATEMENTS = defineStatements('EventsRepository', {
  /** The horizon and the longest event (no occurrence lasts longer), in one round trip. */
  occurrenceState: `SELECT "h"."materialized_from" AS "from", "h"."materialized_until" AS "until",
              (SELECT max("window_span_ms") FROM "events") AS "span"
       FROM (SELECT 1) "one" LEFT JOIN "event_occurrence_horizon" "h" ON "h"."id" = 1`,
  /** A page of occurrences from the table, of one space or of the discoverable spaces' feed. */
  occurrencePage: { space: occurrencePages(false), feed: occurrencePages(true) },
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
  /** The canceled recurrenceIds of the events ($1). */
  canceledOf:
    'SELECT event_id, recurrence_id FROM event_occurrence_overrides WHERE event_id = ANY($1::uuid[]) AND canceled',
  /** The covers occurrences of the events ($1) have of their own. */
  coversOf:
    'SELECT event_id, recurrence_id, cover_media_id FROM event_occurrence_overrides ' +
    'WHERE event_id = ANY($1::uuid[]) AND cover_media_id IS NOT NULL',
  /** Every override of an event ($1). */
  overridesOf:
    'SELECT event_id, recurrence_id, cover_media_id, canceled FROM event_occurrence_overrides WHERE event_id = $1',
  /** The horizon row, empty ($1 now) unless it exists. */
  createHorizon:
    'INSERT INTO event_occurrence_horizon (id, materialized_from, materialized_until) VALUES (1, $1, $1) ON CONFLICT DO NOTHING',
  /** Occurrences, one per element of the arrays ($1 … $5), existing ones left as they are. */
  insertOccurrences:
    'INSERT INTO event_occurrences (event_id, recurrence_id, space_id, starts_at, ends_at) ' +
    'SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::uuid[], $4::timestamptz[], $5::timestamptz[]) ' +
    'ON CONFLICT DO NOTHING',
  /** An event's ($1) occurrences, all of them: its write rewrites them. */
  deleteOccurrencesOf: 'DELETE FROM event_occurrences WHERE event_id = $1',
  /** Every occurrence: a rebuilt horizon starts empty. */
  deleteAllOccurrences: 'DELETE FROM event_occurrences',
  /** The occurrences that ended before the horizon's new start ($1). */
  deleteEndedOccurrences:
    'DELETE FROM event_occurrences WHERE (ends_at IS NOT NULL AND ends_at <= $1) OR (ends_at IS NULL AND starts_at < $1)',
  /** A space's ($1) `public` and `members` events, a recurring series once: its `eventCountSummary`. */
  countOfSpace: `SELECT count(*)::int AS "n" FROM "events" WHERE "space_id" = $1 AND "visibility" IN ('public', 'members')`,
  /** The compact blocks of the discoverable spaces among $1, from the spaces module's published view. */
  discoverableSpaces:
    'SELECT "id", "did", "domain", "display_name", "avatar_media_id" FROM "discoverable_spaces" WHERE "id" = ANY($1::uuid[])',
});

/** The horizon read as the bench twin sends it (bench/twin/events.ts). */
export const OCCURRENCE_STATE = EVENTS_STATEMENTS.occurrenceState;

/**
 * The statement and parameters of one page from the table: its scope's variant, after the seek
 * position when there is one (backward: before it, in the opposite order). Shared with the bench
 * twin (bench/twin/events.ts).
 */
export function occurrencePageStatement(
  scope: Scope,
  window: EventWindow,
  lower: Date,
  seek: Seek | null,
  backward: boolean,
  count: number,
): { text: string; params: unknown[] } {
  const variants =
    'spaceId' in scope ? EVENTS_STATEMENTS.occurrencePage.space : EVENTS_STATEMENTS.occurrencePage.feed;
  const params: unknown[] = [lower, window.to, window.from, ...('spaceId' in scope ? [scope.spaceId] : [])];
  if (!seek) return { text: variants.first, params: [...params, count] };
  return {
    text: backward ? variants.before : variants.after,
    params: [...params, new Date(seek.startMs), seek.eventId, seek.recurrenceId, count],
  };
}

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

/** The event of a listed occurrence: the columns a record shows. */
const eventOfSlotRow = (row: SlotRow): CalendarEvent =>
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

const slotOfRow = (row: SlotRow): Slot => ({
  eventId: row.event_id,
  recurrenceId: row.recurrence_id,
  start: row.starts_at,
  end: row.ends_at,
  event: eventOfSlotRow(row),
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
});

/** The horizon and the longest event's span, as the listings read them. */
export interface OccurrenceState {
  from: Date | null;
  until: Date | null;
  span: string | null;
}

/** A row of `discoverable_spaces`' compact block columns. */
export interface DiscoverableSpaceRow {
  id: string;
  did: string;
  domain: string;
  display_name: string | null;
  avatar_media_id: string | null;
}

/** A new occurrence row. */
export type OccurrenceRow = Pick<
  EventOccurrence,
  'eventId' | 'recurrenceId' | 'spaceId' | 'startsAt' | 'endsAt'
>;

/** Every statement on the events module's tables (events, occurrences, overrides, the horizon). */
@Injectable()
export class EventsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  // Events.

  async insertEvent(event: CalendarEvent, runner: EntityManager): Promise<void> {
    await runner.insert(CalendarEvent, event);
  }

  async saveEvent(event: CalendarEvent, runner: EntityManager): Promise<void> {
    await runner.save(CalendarEvent, event);
  }

  async deleteEvent(id: string, runner: EntityManager): Promise<void> {
    await runner.delete(CalendarEvent, { id });
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

  /** A space's `public` and `members` events. */
  async countOfSpace(spaceId: string): Promise<number> {
    const [{ n }] = await this.dataSource.query<{ n: number }[]>(EVENTS_STATEMENTS.countOfSpace, [spaceId]);
    return n;
  }

  // Overrides.

  /** Canceled recurrenceIds per event, for the events given. */
  async canceledOf(
    eventIds: string[],
    runner: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, Set<string>>> {
    const canceled = new Map<string, Set<string>>();
    if (eventIds.length === 0) return canceled;
    const rows = await runner.query<{ event_id: string; recurrence_id: string }[]>(
      EVENTS_STATEMENTS.canceledOf,
      [eventIds],
    );
    for (const row of rows) {
      const set = canceled.get(row.event_id) ?? new Set<string>();
      set.add(row.recurrence_id);
      canceled.set(row.event_id, set);
    }
    return canceled;
  }

  /** The covers occurrences of these events have of their own: media uuid by `eventId/recurrenceId`. */
  async coversOf(eventIds: string[]): Promise<Map<string, string>> {
    const covers = new Map<string, string>();
    if (eventIds.length === 0) return covers;
    const rows = await this.dataSource.query<
      { event_id: string; recurrence_id: string; cover_media_id: string }[]
    >(EVENTS_STATEMENTS.coversOf, [eventIds]);
    for (const row of rows) covers.set(`${row.event_id}/${row.recurrence_id}`, row.cover_media_id);
    return covers;
  }

  async overridesOf(eventId: string, runner: EntityManager): Promise<OccurrenceOverride[]> {
    const rows = await runner.query<
      { event_id: string; recurrence_id: string; cover_media_id: string | null; canceled: boolean }[]
    >(EVENTS_STATEMENTS.overridesOf, [eventId]);
    return rows.map((row) =>
      Object.assign(new OccurrenceOverride(), {
        eventId: row.event_id,
        recurrenceId: row.recurrence_id,
        coverMediaId: row.cover_media_id,
        canceled: row.canceled,
      }),
    );
  }

  override(eventId: string, recurrenceId: string, runner: EntityManager): Promise<OccurrenceOverride | null> {
    return runner.findOne(OccurrenceOverride, { where: { eventId, recurrenceId } });
  }

  async saveOverride(override: OccurrenceOverride, runner: EntityManager): Promise<void> {
    await runner.save(OccurrenceOverride, override);
  }

  async deleteOverride(eventId: string, recurrenceId: string, runner: EntityManager): Promise<void> {
    await runner.delete(OccurrenceOverride, { eventId, recurrenceId });
  }

  // The horizon and the materialized occurrences.

  /** The span the table covers; null before the first refresh. */
  async horizon(runner: EntityManager = this.dataSource.manager): Promise<OccurrenceHorizon | null> {
    return runner.findOne(OccurrenceHorizon, { where: { id: HORIZON_ROW } });
  }

  /** The horizon row locked shared (`lock` 'read') or exclusively ('write') in the runner's transaction. */
  lockHorizon(runner: EntityManager, lock: 'read' | 'write'): Promise<OccurrenceHorizon | null> {
    return runner.findOne(OccurrenceHorizon, {
      where: { id: HORIZON_ROW },
      lock: { mode: lock === 'read' ? 'pessimistic_read' : 'pessimistic_write' },
    });
  }

  /** Creates the horizon row, empty at `now`, unless it exists. */
  async createHorizon(now: Date, runner: EntityManager): Promise<void> {
    await runner.query(EVENTS_STATEMENTS.createHorizon, [now]);
  }

  async moveHorizon(from: Date, until: Date, runner: EntityManager): Promise<void> {
    await runner.update(
      OccurrenceHorizon,
      { id: HORIZON_ROW },
      { materializedFrom: from, materializedUntil: until },
    );
  }

  async insertOccurrences(rows: OccurrenceRow[], runner: EntityManager): Promise<void> {
    if (rows.length === 0) return;
    await runner.query(EVENTS_STATEMENTS.insertOccurrences, [
      rows.map((row) => row.eventId),
      rows.map((row) => row.recurrenceId),
      rows.map((row) => row.spaceId),
      rows.map((row) => row.startsAt),
      rows.map((row) => row.endsAt),
    ]);
  }

  async deleteOccurrencesOf(eventId: string, runner: EntityManager): Promise<void> {
    await runner.query(EVENTS_STATEMENTS.deleteOccurrencesOf, [eventId]);
  }

  async deleteAllOccurrences(runner: EntityManager): Promise<void> {
    await runner.query(EVENTS_STATEMENTS.deleteAllOccurrences);
  }

  /** Drops the occurrences that ended before `from`. */
  async deleteEndedOccurrences(from: Date, runner: EntityManager): Promise<void> {
    await runner.query(EVENTS_STATEMENTS.deleteEndedOccurrences, [from]);
  }

  // Listings.

  async occurrenceState(): Promise<OccurrenceState> {
    const [state] = await this.dataSource.query<OccurrenceState[]>(EVENTS_STATEMENTS.occurrenceState);
    return state;
  }

  /** One page of the scope's occurrences from the table (`occurrencePageStatement`). */
  async occurrencePage(
    scope: Scope,
    window: EventWindow,
    lower: Date,
    seek: Seek | null,
    backward: boolean,
    count: number,
  ): Promise<Slot[]> {
    const statement = occurrencePageStatement(scope, window, lower, seek, backward, count);
    const rows = await this.dataSource.query<SlotRow[]>(statement.text, statement.params);
    return rows.map(slotOfRow);
  }

  async discoverableSpaces(spaceIds: string[]): Promise<DiscoverableSpaceRow[]> {
    return this.dataSource.query<DiscoverableSpaceRow[]>(EVENTS_STATEMENTS.discoverableSpaces, [spaceIds]);
  }
}
