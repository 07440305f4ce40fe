import type { Pool } from 'pg';
import type { Scope, Seek } from '../../src/events/domain/occurrences';
import {
  OCCURRENCE_STATE,
  occurrencePageStatement,
} from '../../src/events/repositories/occurrences.repository';
import { answer, TwinRefusal, wireId, type TwinContext, type TwinHandler } from './context';
import { spaceByDomain } from './rows';

/**
 * The event listings (design.md §12, api-spec.md "Anonymous reads" rules 3–5), bare, in the app's
 * statements (EventListingsService, OccurrenceListingService, OccurrencesRepository): the public space by
 * its subdomain (space
 * listing only), the materialized horizon with the longest event in one round trip, then the
 * window's page of occurrences by the index, after the cursor's keyset position when there is
 * one, with their events (and, for the feed, their spaces' compact blocks) joined in. The window
 * is the default one, from now to 90 days on, computed here as the app computes it from its
 * clock. A walk reaches the window's first 500 occurrences: cursors carry the position and its
 * place in the walk, as the app's do. The seed's events sell no tickets and have no covers, so no
 * ticket or media statement runs on either side.
 */

const DAY_MS = 86_400_000;
const DEFAULT_WINDOW_DAYS = 90;
const WALK_LIMIT = 500;

/** OccurrenceListingService's horizon read (OccurrencesRepository's declaration). */
export { OCCURRENCE_STATE };

/** OccurrenceListingService's page from the table: the same statement and parameters. */
export { occurrencePageStatement };

export type { Scope, Seek };

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
  cover_media_id: string | null;
  occurrence_cover_media_id: string | null;
  did?: string;
  domain?: string;
  display_name?: string | null;
  avatar_media_id?: string | null;
}

interface SpaceBlock {
  id: string;
  did: string;
  domain: string;
  displayName: string | null;
  avatarUrl: null;
}

interface Page {
  rows: SlotRow[];
  nextCursor: string | null;
  previousCursor: string | null;
}

/** The cursor's position and its place in the walk (EventListingsService.decode). */
function position(
  context: TwinContext,
  listing: string,
  cursor: string,
  member: 'after' | 'before',
): Seek & { ordinal: number } {
  const values = context.cursors.decode(listing, cursor);
  const [startMs, eventId, recurrenceId, ordinal] = values ?? [];
  if (
    values?.length !== 4 ||
    typeof startMs !== 'number' ||
    typeof eventId !== 'string' ||
    typeof recurrenceId !== 'string' ||
    typeof ordinal !== 'number'
  )
    throw new TwinRefusal(400, `invalid cursor in ${member}`);
  return { startMs, eventId, recurrenceId, ordinal };
}

/** One page of the walk (EventListingsService.walk with the table's page of OccurrenceListingService.find). */
async function walk(pool: Pool, listing: string, scope: Scope, context: TwinContext): Promise<Page> {
  const params = context.url.searchParams;
  const limit = Number(params.get('limit') ?? 20);
  const after = params.get('after');
  const before = params.get('before');
  if (after !== null && before !== null) throw new TwinRefusal(400, 'after and before together');
  const backward = before !== null;
  const cursor = after ?? before;
  const seek = cursor === null ? null : position(context, listing, cursor, backward ? 'before' : 'after');
  const place = seek?.ordinal ?? 0;
  const take = backward ? Math.min(limit, place - 1) : Math.min(limit, WALK_LIMIT - place);
  if (take <= 0) return { rows: [], nextCursor: null, previousCursor: null };
  const now = new Date();
  const window = { from: now, to: new Date(now.getTime() + DEFAULT_WINDOW_DAYS * DAY_MS) };
  const {
    rows: [state],
  } = await pool.query<{ from: Date | null; until: Date | null; span: string | null }>(OCCURRENCE_STATE);
  if (!state.from || !state.until || window.from < state.from || window.to > state.until)
    throw new TwinRefusal(500, 'the twin reads materialized windows only');
  const lower = new Date(window.from.getTime() - Number(state.span ?? 0));
  const statement = occurrencePageStatement(
    scope,
    window,
    lower,
    seek && { startMs: seek.startMs, eventId: seek.eventId, recurrenceId: seek.recurrenceId },
    backward,
    take + 1,
  );
  const { rows: fetched } = await pool.query<SlotRow>(statement.text, statement.params);
  if (
    fetched.some(
      (row) =>
        row.ticket_product_ids.length > 0 ||
        row.cover_media_id !== null ||
        row.occurrence_cover_media_id !== null ||
        (row.avatar_media_id ?? null) !== null,
    )
  )
    throw new TwinRefusal(500, 'the twin lists no ticketed events and no covers or avatars');
  const hasMore = fetched.length > take;
  const rows = fetched.slice(0, take);
  if (backward) rows.reverse();
  const firstPlace = backward ? place - rows.length : place + 1;
  const lastPlace = firstPlace + rows.length - 1;
  const encode = (row: SlotRow, ordinal: number) =>
    context.cursors.encode(listing, [row.starts_at.getTime(), row.event_id, row.recurrence_id, ordinal]);
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (!first) return { rows, nextCursor: null, previousCursor: null };
  return backward
    ? {
        rows,
        nextCursor: encode(last, lastPlace),
        previousCursor: firstPlace > 1 ? encode(first, firstPlace) : null,
      }
    : {
        rows,
        nextCursor: hasMore && lastPlace < WALK_LIMIT ? encode(last, lastPlace) : null,
        previousCursor: cursor !== null ? encode(first, firstPlace) : null,
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
  const { rows, nextCursor, previousCursor } = await walk(
    context.pool,
    'space-events',
    { spaceId: space.id },
    context,
  );
  const spaceBlock = block({
    id: space.id,
    did: space.did,
    domain: space.domain,
    displayName: space.display_name,
  });
  return answer({
    items: rows.map((row) => occurrence(row, spaceBlock)),
    nextCursor,
    previousCursor,
  });
};

/** GET /v1/events/upcoming?limit=…: public occurrences of every discoverable space. */
export const upcomingEvents: TwinHandler = async (context) => {
  const { rows, nextCursor, previousCursor } = await walk(
    context.pool,
    'upcoming-events',
    { discoverable: true },
    context,
  );
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
    previousCursor,
  });
};
