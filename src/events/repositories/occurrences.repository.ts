import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { defineStatements } from '../../infrastructure/database/statements';
import type { EventWindow } from '../domain/event-window';
import type { Scope, Seek, Slot } from '../domain/occurrences';
import { CalendarEvent } from '../entities/event.entity';
import { EventOccurrence } from '../entities/event-occurrence.entity';
import { OccurrenceHorizon } from '../entities/occurrence-horizon.entity';
import { OccurrenceOverride } from '../entities/occurrence-override.entity';

/** The one row of `event_occurrence_horizon`. */
const HORIZON_ROW = 1;

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
 * count is the last parameter. Composed once, when the statements are declared
 * (docs/decisions/0140-statement-variants-composed-at-declaration.md).
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

/**
 * The fixed SQL on `event_occurrences`, `event_occurrence_overrides` and
 * `event_occurrence_horizon`, and the listings' reads (docs/decisions/0131-a-repository-per-module.md).
 */
export const OCCURRENCES_STATEMENTS = defineStatements('OccurrencesRepository', {
  /** The horizon and the longest event (no occurrence lasts longer), in one round trip. */
  occurrenceState: `SELECT "h"."materialized_from" AS "from", "h"."materialized_until" AS "until",
              (SELECT max("window_span_ms") FROM "events") AS "span"
       FROM (SELECT 1) "one" LEFT JOIN "event_occurrence_horizon" "h" ON "h"."id" = 1`,
  /** A page of occurrences from the table, of one space or of the discoverable spaces' feed. */
  occurrencePage: { space: occurrencePages(false), feed: occurrencePages(true) },
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
  /**
   * Occurrences, one per element of the arrays ($1 … $5), existing ones left as they are
   * (docs/decisions/0141-multi-row-writes-as-unnest.md).
   */
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
  /** The compact blocks of the discoverable spaces among $1, from the spaces module's published view. */
  discoverableSpaces:
    'SELECT "id", "did", "domain", "display_name", "avatar_media_id" FROM "discoverable_spaces" WHERE "id" = ANY($1::uuid[])',
});

/** The horizon read as the bench twin sends it (bench/twin/events.ts). */
export const OCCURRENCE_STATE = OCCURRENCES_STATEMENTS.occurrenceState;

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
    'spaceId' in scope
      ? OCCURRENCES_STATEMENTS.occurrencePage.space
      : OCCURRENCES_STATEMENTS.occurrencePage.feed;
  const params: unknown[] = [lower, window.to, window.from, ...('spaceId' in scope ? [scope.spaceId] : [])];
  if (!seek) return { text: variants.first, params: [...params, count] };
  return {
    text: backward ? variants.before : variants.after,
    params: [...params, new Date(seek.startMs), seek.eventId, seek.recurrenceId, count],
  };
}

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

/**
 * Every statement on the materialized occurrences, their horizon and the occurrences' overrides,
 * and the listings' reads.
 */
@Injectable()
export class OccurrencesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Canceled recurrenceIds per event, for the events given. */
  async canceledOf(
    eventIds: string[],
    runner: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, Set<string>>> {
    const canceled = new Map<string, Set<string>>();
    if (eventIds.length === 0) return canceled;
    const rows = await runner.query<{ event_id: string; recurrence_id: string }[]>(
      OCCURRENCES_STATEMENTS.canceledOf,
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
    >(OCCURRENCES_STATEMENTS.coversOf, [eventIds]);
    for (const row of rows) covers.set(`${row.event_id}/${row.recurrence_id}`, row.cover_media_id);
    return covers;
  }

  async overridesOf(eventId: string, runner: EntityManager): Promise<OccurrenceOverride[]> {
    const rows = await runner.query<
      { event_id: string; recurrence_id: string; cover_media_id: string | null; canceled: boolean }[]
    >(OCCURRENCES_STATEMENTS.overridesOf, [eventId]);
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

  /** The horizon row locked shared (`lock` 'read') or exclusively ('write') in the runner's transaction. */
  lockHorizon(runner: EntityManager, lock: 'read' | 'write'): Promise<OccurrenceHorizon | null> {
    return runner.findOne(OccurrenceHorizon, {
      where: { id: HORIZON_ROW },
      lock: { mode: lock === 'read' ? 'pessimistic_read' : 'pessimistic_write' },
    });
  }

  /** Creates the horizon row, empty at `now`, unless it exists. */
  async createHorizon(now: Date, runner: EntityManager): Promise<void> {
    await runner.query(OCCURRENCES_STATEMENTS.createHorizon, [now]);
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
    await runner.query(OCCURRENCES_STATEMENTS.insertOccurrences, [
      rows.map((row) => row.eventId),
      rows.map((row) => row.recurrenceId),
      rows.map((row) => row.spaceId),
      rows.map((row) => row.startsAt),
      rows.map((row) => row.endsAt),
    ]);
  }

  async deleteOccurrencesOf(eventId: string, runner: EntityManager): Promise<void> {
    await runner.query(OCCURRENCES_STATEMENTS.deleteOccurrencesOf, [eventId]);
  }

  async deleteAllOccurrences(runner: EntityManager): Promise<void> {
    await runner.query(OCCURRENCES_STATEMENTS.deleteAllOccurrences);
  }

  /** Drops the occurrences that ended before `from`. */
  async deleteEndedOccurrences(from: Date, runner: EntityManager): Promise<void> {
    await runner.query(OCCURRENCES_STATEMENTS.deleteEndedOccurrences, [from]);
  }

  async occurrenceState(): Promise<OccurrenceState> {
    const [state] = await this.dataSource.query<OccurrenceState[]>(OCCURRENCES_STATEMENTS.occurrenceState);
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
    return this.dataSource.query<DiscoverableSpaceRow[]>(OCCURRENCES_STATEMENTS.discoverableSpaces, [
      spaceIds,
    ]);
  }
}
