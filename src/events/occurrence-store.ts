import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull, Not } from 'typeorm';
import { CalendarEvent } from './entities/event.entity';
import { EventOccurrence } from './entities/event-occurrence.entity';
import { OccurrenceHorizon } from './entities/occurrence-horizon.entity';
import { OccurrenceOverride } from './entities/occurrence-override.entity';
import { DAY_MS } from './event-window';
import { Occurrence, OccurrenceSeries } from './recurrence/occurrence-series';

/** The materialized span reaches this far back (recent windows stay on the table)… */
export const HORIZON_BEHIND_DAYS = 30;
/** …and this far ahead: the 366-day look-ahead plus a default 90-day window from there. */
export const HORIZON_AHEAD_DAYS = 460;
const HORIZON_ROW = 1;
/** More occurrences than any event can have in the horizon (at most daily). */
const PER_EVENT_CAP = 5000;
const INSERT_BATCH = 1000;

export interface Horizon {
  from: Date;
  until: Date;
}

export const seriesOf = (event: CalendarEvent) =>
  new OccurrenceSeries({
    isAllDay: event.isAllDay,
    startsAt: event.startsAt,
    endsAt: event.endsAt,
    timeZone: event.timeZone,
    startDate: event.startDate,
    endDate: event.endDate,
    rrule: event.rrule,
  });

/**
 * `event_occurrences` (design.md §12 "Speed"): the occurrences of public events that overlap the
 * horizon, canceled ones left out. An event write rewrites its own rows in its transaction; the
 * scheduled refresh moves the horizon. Writes hold the horizon row shared and the refresh holds it
 * exclusively, so neither misses the other's rows, whichever replica runs the refresh.
 */
@Injectable()
export class OccurrenceStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The span the table covers; null before the first refresh. */
  async horizon(manager: EntityManager = this.dataSource.manager): Promise<Horizon | null> {
    const row = await manager.findOne(OccurrenceHorizon, { where: { id: HORIZON_ROW } });
    return row ? { from: row.materializedFrom, until: row.materializedUntil } : null;
  }

  /** Replaces the event's rows (none when it is not public), inside the write's transaction. */
  async rewrite(manager: EntityManager, event: CalendarEvent): Promise<void> {
    const row = await this.holdHorizon(manager);
    await manager.delete(EventOccurrence, { eventId: event.id });
    if (!row || event.visibility !== 'public') return;
    await this.insert(manager, [event], row.materializedFrom, row.materializedUntil);
  }

  /**
   * Holds the horizon row shared for the rest of the write's transaction; taken before the write
   * touches any occurrence, so a refresh running meanwhile finishes (or waits) as a whole and the
   * two never wait on each other's rows. Null before the first refresh.
   */
  async holdHorizon(manager: EntityManager): Promise<OccurrenceHorizon | null> {
    return manager
      .getRepository(OccurrenceHorizon)
      .createQueryBuilder('horizon')
      .setLock('pessimistic_read')
      .where('horizon.id = :id', { id: HORIZON_ROW })
      .getOne();
  }

  /**
   * Moves the horizon to [now − 30 days, now + 460 days): drops rows that ended before it, adds
   * the occurrences of the new days. A horizon that would move back is rebuilt from scratch.
   */
  async refresh(now: Date): Promise<void> {
    const from = new Date(now.getTime() - HORIZON_BEHIND_DAYS * DAY_MS);
    const until = new Date(now.getTime() + HORIZON_AHEAD_DAYS * DAY_MS);
    await this.dataSource.transaction(async (manager) => {
      await manager
        .createQueryBuilder()
        .insert()
        .into(OccurrenceHorizon)
        .values({ id: HORIZON_ROW, materializedFrom: now, materializedUntil: now })
        .orIgnore()
        .execute();
      const row = await manager
        .getRepository(OccurrenceHorizon)
        .createQueryBuilder('horizon')
        .setLock('pessimistic_write')
        .where('horizon.id = :id', { id: HORIZON_ROW })
        .getOneOrFail();
      const rebuild =
        from < row.materializedFrom ||
        until < row.materializedUntil ||
        row.materializedFrom >= row.materializedUntil;
      if (rebuild) {
        await manager.createQueryBuilder().delete().from(EventOccurrence).execute();
        const events = await manager.find(CalendarEvent, { where: { visibility: 'public' } });
        await this.insert(manager, events, from, until);
      } else {
        await manager
          .createQueryBuilder()
          .delete()
          .from(EventOccurrence)
          .where('(ends_at IS NOT NULL AND ends_at <= :from) OR (ends_at IS NULL AND starts_at < :from)', {
            from,
          })
          .execute();
        const events = await manager
          .getRepository(CalendarEvent)
          .createQueryBuilder('event')
          .where("event.visibility = 'public'")
          .andWhere('(event.lastEnd IS NULL OR event.lastEnd > :until)', { until: row.materializedUntil })
          .getMany();
        await this.insert(manager, events, row.materializedUntil, until);
      }
      await manager.update(
        OccurrenceHorizon,
        { id: HORIZON_ROW },
        { materializedFrom: from, materializedUntil: until },
      );
    });
  }

  /** Canceled recurrenceIds per event, for the events given. */
  async canceledOf(
    eventIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, Set<string>>> {
    const canceled = new Map<string, Set<string>>();
    if (eventIds.length === 0) return canceled;
    const rows = await manager.find(OccurrenceOverride, {
      select: { eventId: true, recurrenceId: true },
      where: { eventId: In(eventIds), canceled: true },
    });
    for (const row of rows) {
      const set = canceled.get(row.eventId) ?? new Set<string>();
      set.add(row.recurrenceId);
      canceled.set(row.eventId, set);
    }
    return canceled;
  }

  /** The covers occurrences of these events have of their own: media uuid by `eventId/recurrenceId`. */
  async coversOf(eventIds: string[]): Promise<Map<string, string>> {
    const covers = new Map<string, string>();
    if (eventIds.length === 0) return covers;
    const rows = await this.dataSource.manager.find(OccurrenceOverride, {
      select: { eventId: true, recurrenceId: true, coverMediaId: true },
      where: { eventId: In(eventIds), coverMediaId: Not(IsNull()) },
    });
    for (const row of rows) covers.set(`${row.eventId}/${row.recurrenceId}`, row.coverMediaId!);
    return covers;
  }

  /** Inserts the live occurrences of the events overlapping [from, until); existing rows stay. */
  private async insert(
    manager: EntityManager,
    events: CalendarEvent[],
    from: Date,
    until: Date,
  ): Promise<void> {
    const canceled = await this.canceledOf(
      events.map((event) => event.id),
      manager,
    );
    let batch: Partial<EventOccurrence>[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      await manager.createQueryBuilder().insert().into(EventOccurrence).values(batch).orIgnore().execute();
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

const rowOf = (event: CalendarEvent, occurrence: Occurrence): Partial<EventOccurrence> => ({
  eventId: event.id,
  recurrenceId: occurrence.recurrenceId,
  spaceId: event.spaceId,
  startsAt: occurrence.start,
  endsAt: occurrence.end,
});
