import { Injectable } from '@nestjs/common';
import type { SpaceView } from '../../spaces';

/**
 * The occurrence cards (the events module's `EventOccurrenceRecord`: its dto cannot be imported
 * here without a cycle through the store and posts) of many events (uuid) by id, under the spaces
 * given by id.
 */
export type EventCards = (
  eventIds: readonly string[],
  spaces: ReadonlyMap<string, SpaceView>,
) => Promise<Map<string, object>>;

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
  events(eventIds: readonly string[], spaces: ReadonlyMap<string, SpaceView>) {
    if (eventIds.length === 0 || this.eventCards === null) return Promise.resolve(new Map<string, object>());
    return this.eventCards(eventIds, spaces);
  }
}
