import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DAY_MS } from '../domain/event-window';
import { HORIZON_AHEAD_DAYS, HORIZON_BEHIND_DAYS, seriesOf } from '../domain/occurrences';
import { Occurrence } from '../domain/recurrence/occurrence-series';
import { CalendarEvent } from '../entities/event.entity';
import { EventsRepository } from '../repositories/events.repository';
import { OccurrenceRow, OccurrencesRepository } from '../repositories/occurrences.repository';

/** More occurrences than any event can have in the horizon (at most daily). */
const PER_EVENT_CAP = 5000;
const INSERT_BATCH = 1000;

/**
 * `event_occurrences` (design.md §12 "Speed"): the occurrences of public events that overlap the
 * horizon, canceled ones left out. An event write rewrites its own rows in its transaction; the
 * scheduled refresh moves the horizon. Writes hold the horizon row shared and the refresh holds it
 * exclusively, so neither misses the other's rows, whichever replica runs the refresh.
 */
@Injectable()
export class OccurrencesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: EventsRepository,
    private readonly occurrences: OccurrencesRepository,
  ) {}

  /** Replaces the event's rows (none when it is not public), inside the write's transaction. */
  async rewrite(manager: EntityManager, event: CalendarEvent): Promise<void> {
    const row = await this.holdHorizon(manager);
    await this.occurrences.deleteOccurrencesOf(event.id, manager);
    if (!row || event.visibility !== 'public') return;
    await this.insert(manager, [event], row.materializedFrom, row.materializedUntil);
  }

  /**
   * Holds the horizon row shared for the rest of the write's transaction; taken before the write
   * touches any occurrence, so a refresh running meanwhile finishes (or waits) as a whole and the
   * two never wait on each other's rows. Null before the first refresh.
   */
  holdHorizon(manager: EntityManager) {
    return this.occurrences.lockHorizon(manager, 'read');
  }

  /**
   * Moves the horizon to [now − 30 days, now + 460 days): drops rows that ended before it, adds
   * the occurrences of the new days. A horizon that would move back is rebuilt from scratch.
   */
  async refresh(now: Date): Promise<void> {
    const from = new Date(now.getTime() - HORIZON_BEHIND_DAYS * DAY_MS);
    const until = new Date(now.getTime() + HORIZON_AHEAD_DAYS * DAY_MS);
    await this.dataSource.transaction(async (manager) => {
      await this.occurrences.createHorizon(now, manager);
      const row = await this.occurrences.lockHorizon(manager, 'write');
      if (!row) throw new Error('the occurrence horizon row is missing');
      const rebuild =
        from < row.materializedFrom ||
        until < row.materializedUntil ||
        row.materializedFrom >= row.materializedUntil;
      if (rebuild) {
        await this.occurrences.deleteAllOccurrences(manager);
        await this.insert(manager, await this.events.publicEvents(manager), from, until);
      } else {
        await this.occurrences.deleteEndedOccurrences(from, manager);
        const events = await this.events.publicEvents(manager, row.materializedUntil);
        await this.insert(manager, events, row.materializedUntil, until);
      }
      await this.occurrences.moveHorizon(from, until, manager);
    });
  }

  /** Inserts the live occurrences of the events overlapping [from, until); existing rows stay. */
  private async insert(
    manager: EntityManager,
    events: CalendarEvent[],
    from: Date,
    until: Date,
  ): Promise<void> {
    const canceled = await this.occurrences.canceledOf(
      events.map((event) => event.id),
      manager,
    );
    let batch: OccurrenceRow[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      await this.occurrences.insertOccurrences(batch, manager);
      batch = [];
    };
    for (const event of events) {
      const skipped = canceled.get(event.id);
      for (const occurrence of seriesOf(event).between(from, until, PER_EVENT_CAP)) {
        if (skipped?.has(occurrence.recurrenceId)) continue;
        batch.push(rowOf(event, occurrence));
        if (batch.length >= INSERT_BATCH) await flush();
      }
    }
    await flush();
  }
}

const rowOf = (event: CalendarEvent, occurrence: Occurrence): OccurrenceRow => ({
  eventId: event.id,
  recurrenceId: occurrence.recurrenceId,
  spaceId: event.spaceId,
  startsAt: occurrence.start,
  endsAt: occurrence.end,
});
