import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { EventsRepository } from '../repositories/events.repository';

/** An event addressed under a space: both database ids (uuids, not wire ids). */
export interface EventReference {
  eventId: string;
  spaceId: string;
}

/**
 * What other modules may read of events: the titles of the events an anonymous reader could see
 * (design.md §12: `public` events; one that has ended is a 404 on the single-event route, so it is
 * not named either). The caller checks the space itself has a public profile.
 */
@Injectable()
export class PublicEventsService {
  constructor(
    private readonly events: EventsRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * The space and title, by event id, of the events among `refs` an anonymous reader could see
   * under the space each names (an event under another space's id is not among them): one
   * statement, none for none.
   */
  titlesOf(refs: readonly EventReference[]): Promise<Map<string, { spaceId: string; title: string }>> {
    return this.events.publicTitlesOf(refs, this.clock.now());
  }
}
