import type { Pool } from 'pg';
import { answer, TwinRefusal, wireId, type TwinContext, type TwinHandler } from './context';
import { spaceByDomain } from './rows';

/**
 * The event listings (design.md §12, api-spec.md "Anonymous reads" rules 3–5), bare, in the app's
 * statements (EventListingsService, OccurrenceSlots): the public space by its subdomain (space
 * listing only), the materialized horizon with the longest event in one round trip, then the
 * window's page of occurrences by the index with their events (and, for the feed, their spaces'
 * compact blocks) joined in. The window is the default one, from now to 90 days on, computed
 * here as the app computes it from its clock. The seed's events sell no tickets, so no ticket
 * statement runs on either side.
 */

const DAY_MS = 86_400_000;
const DEFAULT_WINDOW_DAYS = 90;
const WALK_LIMIT = 500;

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
]
  .map((column) => `"e"."${column}"`)
  .join(', ');

const DISCOVERABLE = 'EXISTS (SELECT 1 FROM "discoverable_spaces" "d" WHERE "d"."id" = "o"."space_id")';

interface SlotRow {
  event_id: string;
  recurrence_id: string;
  starts_at: Date;
  ends_at: Date | null;
  space_id: string;
  title: string;
  description: string | null;
  location: string | null;
  type: string;
  mode: string | null;
  url: string | null;
  is_all_day: boolean;
  time_zone: string | null;
  end_date: string | null;
  requires_ticket: boolean;
  ticket_product_ids: string[];
  window_span_ms: string;
  did?: string;
  domain?: string;
  display_name?: string | null;
}

interface SpaceBlock {
  id: string;
  did: string;
  domain: string;
  displayName: string | null;
  avatarUrl: null;
}

type Scope = { spaceId: string } | { discoverable: true };

/** One page of the walk from its start (the bench reads first pages: no cursor in). */
async function walk(
  pool: Pool,
  listing: string,
  scope: Scope,
  context: TwinContext,
): Promise<{ rows: SlotRow[]; nextCursor: string | null }> {
  const limit = Number(context.url.searchParams.get('limit') ?? 20);
  if (context.url.searchParams.has('after') || context.url.searchParams.has('before'))
    throw new TwinRefusal(500, 'the twin reads first pages only');
  const now = new Date();
  const window = { from: now, to: new Date(now.getTime() + DEFAULT_WINDOW_DAYS * DAY_MS) };
  const take = Math.min(limit, WALK_LIMIT);
  const {
    rows: [state],
  } = await pool.query<{ from: Date | null; until: Date | null; span: string | null }>(
    `SELECT "h"."materialized_from" AS "from", "h"."materialized_until" AS "until",
              (SELECT max("window_span_ms") FROM "events") AS "span"
       FROM (SELECT 1) "one" LEFT JOIN "event_occurrence_horizon" "h" ON "h"."id" = 1`,
  );
  if (!state.from || !state.until || window.from < state.from || window.to > state.until)
    throw new TwinRefusal(500, 'the twin reads materialized windows only');
  const lower = new Date(window.from.getTime() - Number(state.span ?? 0));
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
  const order = '"o"."starts_at" ASC, "o"."event_id" ASC, "o"."recurrence_id" ASC';
  params.push(take + 1);
  const { rows } = await pool.query<SlotRow>(
    `SELECT "o"."event_id", "o"."recurrence_id", "o"."starts_at", "o"."ends_at", ${EVENT_COLUMNS},
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
  );
  const page = rows.slice(0, take);
  const last = page[page.length - 1];
  if (rows.some((row) => row.ticket_product_ids.length > 0))
    throw new TwinRefusal(500, 'the twin lists no ticketed events');
  return {
    rows: page,
    nextCursor:
      rows.length > take && page.length < WALK_LIMIT && last
        ? context.cursors.encode(listing, [
            last.starts_at.getTime(),
            last.event_id,
            last.recurrence_id,
            page.length,
          ])
        : null,
  };
}

/** toOccurrenceRecord for a timed event's occurrence. */
function occurrence(row: SlotRow, space: SpaceBlock): Record<string, unknown> {
  if (row.is_all_day) throw new TwinRefusal(500, 'the twin lists timed events only');
  const isUpdate = row.type === 'update';
  return {
    id: wireId('evt', row.event_id),
    seriesId: wireId('evt', row.event_id),
    recurrenceId: row.recurrence_id,
    space,
    title: row.title,
    description: row.description,
    location: row.location,
    type: row.type,
    mode: isUpdate ? null : row.mode,
    url: row.url,
    interestCount: 0,
    requiresTicket: isUpdate ? false : row.requires_ticket,
    tickets: [],
    cover: null,
    isAllDay: false,
    startsAt: row.starts_at.toISOString(),
    endsAt: row.ends_at ? row.ends_at.toISOString() : null,
    localStart: row.recurrence_id,
    timeZone: row.time_zone,
    startDate: null,
    endDate: null,
  };
}

const block = (space: {
  id: string;
  did: string;
  domain: string;
  displayName: string | null;
}): SpaceBlock => ({
  id: wireId('space', space.id),
  did: space.did,
  domain: space.domain,
  displayName: space.displayName,
  avatarUrl: null,
});

/** GET /v1/spaces/{space}/events?limit=…: the space's public occurrences of the default window. */
export const spaceEvents: TwinHandler = async (context) => {
  const space = await spaceByDomain(
    context.pool,
    decodeURIComponent(context.url.pathname.split('/')[3] ?? ''),
  );
  if (!space || !space.is_public) throw new TwinRefusal(404, 'no such space');
  const { rows, nextCursor } = await walk(context.pool, 'space-events', { spaceId: space.id }, context);
  const spaceBlock = block({
    id: space.id,
    did: space.did,
    domain: space.domain,
    displayName: space.display_name,
  });
  return answer({
    items: rows.map((row) => occurrence(row, spaceBlock)),
    nextCursor,
    previousCursor: null,
  });
};

/** GET /v1/events/upcoming?limit=…: public occurrences of every discoverable space. */
export const upcomingEvents: TwinHandler = async (context) => {
  const { rows, nextCursor } = await walk(context.pool, 'upcoming-events', { discoverable: true }, context);
  return answer({
    items: rows.map((row) =>
      occurrence(
        row,
        block({
          id: row.space_id,
          did: row.did!,
          domain: row.domain!,
          displayName: row.display_name ?? null,
        }),
      ),
    ),
    nextCursor,
    previousCursor: null,
  });
};
