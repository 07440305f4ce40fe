import { Injectable } from '@nestjs/common';
import type { EventOccurrenceRecord, SpaceBlockSource } from '../../events';

/** The occurrence cards of many events (uuid) by id, under the space blocks given by space id. */
export type EventCards = (
  eventIds: readonly string[],
  spaces: ReadonlyMap<string, SpaceBlockSource>,
) => Promise<Map<string, EventOccurrenceRecord>>;

/**
 * Where a module search cannot import registers how its found items look: the events module
 * (it imports the store, which imports posts, which import events' records: search importing
 * `EventsModule` would close that cycle), as it registers its count with SpaceCountersService
 * (docs/decisions/0182-search-access-is-the-listings.md).
 */
@Injectable()
export class SearchItemsService {
  private eventCards: EventCards | null = null;

  registerEvents(cards: EventCards): void {
    this.eventCards = cards;
  }

  /** The registered cards of `eventIds`; none while no module registered them. */
  events(eventIds: readonly string[], spaces: ReadonlyMap<string, SpaceBlockSource>) {
    if (eventIds.length === 0 || this.eventCards === null)
      return Promise.resolve(new Map<string, EventOccurrenceRecord>());
    return this.eventCards(eventIds, spaces);
  }
}
