import { Injectable } from '@nestjs/common';
import { EventWindow, WALK_LIMIT } from '../domain/event-window';
import { compareSlots, Scope, Seek, seriesOf, Slot } from '../domain/occurrences';
import { EventsRepository } from '../repositories/events.repository';
import { OccurrencesRepository } from '../repositories/occurrences.repository';

/**
 * The occurrences of a window in (start, event id, recurrenceId) order, after a keyset position:
 * one indexed range scan of `event_occurrences` when the window lies inside its horizon, else
 * (a window far in the past or future) the exact expansion of the candidate events' rules,
 * bounded by the walk's 500.
 */
@Injectable()
export class OccurrenceListingService {
  constructor(
    private readonly events: EventsRepository,
    private readonly occurrences: OccurrencesRepository,
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
    const state = await this.occurrences.occurrenceState();
    if (state.from && state.until && window.from >= state.from && window.to <= state.until) {
      const lower = new Date(window.from.getTime() - Number(state.span ?? 0));
      return this.occurrences.occurrencePage(scope, window, lower, seek, backward, count);
    }
    return this.expanded(scope, window, seek, backward, count);
  }

  private async expanded(
    scope: Scope,
    window: EventWindow,
    seek: Seek | null,
    backward: boolean,
    count: number,
  ): Promise<Slot[]> {
    const events = await this.events.publicEventsOfWindow(scope, window);
    const eventIds = events.map((event) => event.id);
    const [canceled, covers] = await Promise.all([
      this.occurrences.canceledOf(eventIds),
      this.occurrences.coversOf(eventIds),
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
