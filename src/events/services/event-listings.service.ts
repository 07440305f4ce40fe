import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { notFound } from '../../common/errors/api-error';
import { parseEntityId } from '../../common/ids/entity-id';
import { bothDirections, CursorCodec, invalidCursorIn } from '../../common/pagination/cursor-codec';
import { Page } from '../../common/pagination/page';
import { SearchItemsService } from '../../search';
import { SpaceDirectoryService } from '../../spaces';
import { MediaLookupService } from '../../media';
import { DAY_MS, EventWindow, LOOK_AHEAD_DAYS, resolveWindow, WALK_LIMIT } from '../domain/event-window';
import { Scope, seriesOf, Slot, SpaceBlockSource } from '../domain/occurrences';
import { EventOccurrenceRecord, EventSpaceBlock } from '../dto/event-records.dto';
import { EventWindowQuery } from '../dto/event-requests.dto';
import { EventsRepository } from '../repositories/events.repository';
import { OccurrencesRepository } from '../repositories/occurrences.repository';
import { EventTicketsService } from './event-tickets.service';
import { toOccurrenceRecord, toSpaceBlock } from './events.presenter';
import { OccurrenceListingService } from './occurrence-listing.service';

/** A keyset position in a walk: the slot's (start, event, recurrenceId) and its place (1-based). */
interface Position {
  startMs: number;
  eventId: string;
  recurrenceId: string;
  ordinal: number;
}

/**
 * The anonymous event reads (api-spec.md "Anonymous reads", per-route rules 3–5; design.md §12):
 * a space's occurrences, the cross-space upcoming feed, one event.
 */
@Injectable()
export class EventListingsService implements OnModuleInit {
  constructor(
    private readonly events: EventsRepository,
    private readonly occurrences: OccurrencesRepository,
    private readonly directory: SpaceDirectoryService,
    private readonly listing: OccurrenceListingService,
    private readonly tickets: EventTicketsService,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
    private readonly media: MediaLookupService,
    private readonly search: SearchItemsService,
  ) {}

  /** Search shows found events as their occurrence cards (docs/decisions/0182-search-access-is-the-listings.md). */
  onModuleInit(): void {
    this.search.registerEvents((eventIds, spaces) => this.occurrenceCardsOf(eventIds, spaces));
  }

  /** A space's public occurrences in the window; a space without a public profile is the one 404. */
  async listSpace(reference: string, query: EventWindowQuery): Promise<Page<EventOccurrenceRecord>> {
    const space = await this.directory.findPublicByReference(reference);
    if (!space) throw notFound();
    const window = resolveWindow(query.from, query.to, this.clock.now());
    const page = await this.walk('space-events', { spaceId: space.id }, window, query);
    const avatarUrl = await this.avatarOf(space);
    return this.present(page, async () => new Map([[space.id, toSpaceBlock(space, avatarUrl)]]));
  }

  /** Public occurrences of every publicly discoverable space; never a 404. */
  async upcoming(query: EventWindowQuery): Promise<Page<EventOccurrenceRecord>> {
    const window = resolveWindow(query.from, query.to, this.clock.now());
    const page = await this.walk('upcoming-events', { discoverable: true }, window, query);
    return this.present(page, (spaceIds) => this.discoverableSpaces(spaceIds));
  }

  /**
   * One public event: the occurrence `occ` names when it is live (occurs, not canceled, not
   * ended), else the soonest one that has not ended within 366 days; none is the one 404.
   */
  async getOne(
    reference: string,
    eventReference: string,
    occ: string | undefined,
  ): Promise<EventOccurrenceRecord> {
    const space = await this.directory.findPublicByReference(reference);
    const id = parseEntityId('evt', eventReference);
    if (!space || !id) throw notFound();
    const event = await this.events.publicEventOfSpace(id, space.id);
    if (!event) throw notFound();
    const canceled = (await this.occurrences.canceledOf([event.id])).get(event.id) ?? new Set<string>();
    const series = seriesOf(event);
    const now = this.clock.now();
    const named = occ ? series.named(occ) : null;
    const live =
      named && !canceled.has(named.recurrenceId) && (named.end ? named.end > now : named.start >= now)
        ? named
        : null;
    const occurrence =
      live ??
      series
        .between(now, new Date(now.getTime() + LOOK_AHEAD_DAYS * DAY_MS), canceled.size + 1)
        .find((candidate) => !canceled.has(candidate.recurrenceId));
    if (!occurrence) throw notFound();
    const [tickets, own, avatarUrl] = await Promise.all([
      this.tickets.forEvents([event]).then((entries) => entries.get(event.id)!),
      this.occurrences.coversOf([event.id]),
      this.avatarOf(space),
    ]);
    const coverId = own.get(`${event.id}/${occurrence.recurrenceId}`) ?? event.coverMediaId;
    const covers = await this.media.imageObjects([coverId]);
    return toOccurrenceRecord(
      event,
      occurrence,
      toSpaceBlock(space, avatarUrl),
      tickets,
      (coverId && covers.get(coverId)) || null,
    );
  }

  /**
   * The occurrence cards of many public events, by event id, for search's results:
   * each event's soonest occurrence that has not ended within 366 days, as `getOne` falls back to
   * (an event with none has no card), under the space block of `spaces` (the callers' spaces with a
   * public profile, by id; an event of another space has no card). One statement for the events,
   * one for their canceled and one for their own covers, then the tickets and images in batches.
   */
  async occurrenceCardsOf(
    eventIds: readonly string[],
    spaces: ReadonlyMap<string, SpaceBlockSource>,
  ): Promise<Map<string, EventOccurrenceRecord>> {
    const unique = [...new Set(eventIds)];
    if (unique.length === 0) return new Map();
    const now = this.clock.now();
    const events = (await this.events.publicEventsOf(unique, now)).filter((event) =>
      spaces.has(event.spaceId),
    );
    if (events.length === 0) return new Map();
    const ids = events.map((event) => event.id);
    const [canceled, own] = await Promise.all([
      this.occurrences.canceledOf(ids),
      this.occurrences.coversOf(ids),
    ]);
    const horizon = new Date(now.getTime() + LOOK_AHEAD_DAYS * DAY_MS);
    const next = events.flatMap((event) => {
      const skipped = canceled.get(event.id) ?? new Set<string>();
      const occurrence = seriesOf(event)
        .between(now, horizon, skipped.size + 1)
        .find((candidate) => !skipped.has(candidate.recurrenceId));
      return occurrence ? [{ event, occurrence }] : [];
    });
    const coverIdOf = ({ event, occurrence }: (typeof next)[number]) =>
      own.get(`${event.id}/${occurrence.recurrenceId}`) ?? event.coverMediaId;
    const blocks = [...new Set(next.map(({ event }) => event.spaceId))].map((id) => spaces.get(id)!);
    const [tickets, covers, avatars] = await Promise.all([
      this.tickets.forEvents(next.map(({ event }) => event)),
      this.media.imageObjects(next.map(coverIdOf)),
      this.media.imageUrls(blocks.map((space) => space.avatarMediaId)),
    ]);
    return new Map(
      next.map((found) => {
        const space = spaces.get(found.event.spaceId)!;
        const avatarUrl = (space.avatarMediaId && avatars.get(space.avatarMediaId)) || null;
        const coverId = coverIdOf(found);
        return [
          found.event.id,
          toOccurrenceRecord(
            found.event,
            found.occurrence,
            toSpaceBlock(space, avatarUrl),
            tickets.get(found.event.id)!,
            (coverId && covers.get(coverId)) || null,
          ),
        ];
      }),
    );
  }

  /** The space's avatar as a permanent public URL, or null. */
  private async avatarOf(space: { avatarMediaId: string | null }): Promise<string | null> {
    const urls = await this.media.imageUrls([space.avatarMediaId]);
    return (space.avatarMediaId && urls.get(space.avatarMediaId)) || null;
  }

  /**
   * One page of a walk over the window's first 500 occurrences, ordered by (start, event id,
   * recurrenceId). Cursors carry the position and its place in the walk, so the walk ends at 500.
   */
  private async walk(
    listing: string,
    scope: Scope,
    window: EventWindow,
    query: EventWindowQuery,
  ): Promise<{ slots: Slot[]; nextCursor: string | null; previousCursor: string | null }> {
    if (query.after && query.before) throw bothDirections();
    const backward = Boolean(query.before);
    const cursor = query.after ?? query.before;
    const seek = cursor ? this.decode(listing, cursor, backward ? 'before' : 'after') : null;
    const place = seek?.ordinal ?? 0;
    const take = backward ? Math.min(query.limit, place - 1) : Math.min(query.limit, WALK_LIMIT - place);
    if (take <= 0) return { slots: [], nextCursor: null, previousCursor: null };
    const fetched = await this.listing.find(scope, window, seek, backward, take + 1);
    const hasMore = fetched.length > take;
    const slots = fetched.slice(0, take);
    if (backward) slots.reverse();
    const firstPlace = backward ? place - slots.length : place + 1;
    const lastPlace = firstPlace + slots.length - 1;
    const encode = (slot: Slot, ordinal: number) =>
      this.cursors.encode(listing, [slot.start.getTime(), slot.eventId, slot.recurrenceId, ordinal]);
    const first = slots[0];
    const last = slots[slots.length - 1];
    if (!first) return { slots, nextCursor: null, previousCursor: null };
    return backward
      ? {
          slots,
          nextCursor: encode(last, lastPlace),
          previousCursor: firstPlace > 1 ? encode(first, firstPlace) : null,
        }
      : {
          slots,
          nextCursor: hasMore && lastPlace < WALK_LIMIT ? encode(last, lastPlace) : null,
          previousCursor: cursor ? encode(first, firstPlace) : null,
        };
  }

  private decode(listing: string, cursor: string, member: 'after' | 'before'): Position {
    const values = this.cursors.decode(listing, cursor, member);
    const [startMs, eventId, recurrenceId, ordinal] = values;
    if (
      values.length !== 4 ||
      typeof startMs !== 'number' ||
      typeof eventId !== 'string' ||
      typeof recurrenceId !== 'string' ||
      typeof ordinal !== 'number'
    ) {
      throw invalidCursorIn(member);
    }
    return { startMs, eventId, recurrenceId, ordinal };
  }

  /** The records of a page: the events came with the slots; spaces and tickets once per page. */
  private async present(
    page: { slots: Slot[]; nextCursor: string | null; previousCursor: string | null },
    spacesOf: (spaceIds: string[]) => Promise<Map<string, EventSpaceBlock>>,
  ): Promise<Page<EventOccurrenceRecord>> {
    const spaces = new Map<string, EventSpaceBlock>();
    const feedSpaces = page.slots.flatMap((slot) => (slot.space ? [slot.space] : []));
    const avatars = await this.media.imageUrls(feedSpaces.map((space) => space.avatarMediaId));
    for (const space of feedSpaces) {
      spaces.set(
        space.id,
        toSpaceBlock(space, (space.avatarMediaId && avatars.get(space.avatarMediaId)) || null),
      );
    }
    const unknown = [...new Set(page.slots.map((slot) => slot.event.spaceId))].filter(
      (id) => !spaces.has(id),
    );
    if (unknown.length > 0) for (const [id, block] of await spacesOf(unknown)) spaces.set(id, block);
    const events = new Map(page.slots.map((slot) => [slot.eventId, slot.event]));
    // Covers: each occurrence's own (read with the slots) else its event's (public images only).
    const coverIdOf = (slot: Slot) => slot.ownCoverMediaId ?? slot.event.coverMediaId;
    const [tickets, covers] = await Promise.all([
      this.tickets.forEvents([...events.values()]),
      this.media.imageObjects(page.slots.map(coverIdOf)),
    ]);
    const items: EventOccurrenceRecord[] = [];
    for (const slot of page.slots) {
      const space = spaces.get(slot.event.spaceId);
      if (!space) continue;
      const occurrence = { recurrenceId: slot.recurrenceId, start: slot.start, end: slot.end };
      const coverId = coverIdOf(slot);
      const cover = (coverId && covers.get(coverId)) || null;
      items.push(toOccurrenceRecord(slot.event, occurrence, space, tickets.get(slot.eventId)!, cover));
    }
    return { items, nextCursor: page.nextCursor, previousCursor: page.previousCursor };
  }

  /** The compact blocks of publicly discoverable spaces, from the spaces module's published view. */
  private async discoverableSpaces(spaceIds: string[]): Promise<Map<string, EventSpaceBlock>> {
    if (spaceIds.length === 0) return new Map();
    const rows = await this.occurrences.discoverableSpaces(spaceIds);
    const avatars = await this.media.imageUrls(rows.map((row) => row.avatar_media_id));
    return new Map(
      rows.map((row) => {
        const source: SpaceBlockSource = {
          id: row.id,
          did: row.did,
          domain: row.domain,
          displayName: row.display_name,
          avatarMediaId: row.avatar_media_id,
        };
        return [
          row.id,
          toSpaceBlock(source, (row.avatar_media_id && avatars.get(row.avatar_media_id)) || null),
        ];
      }),
    );
  }
}
