import { Options, RRule } from 'rrule';
import { matchesSoon } from './first-match';
import { expander, laterPeriodStart, ruleOptions } from './rule-options';
import { parseRecurrenceRule, RecurrenceRule } from './rrule-text';
import { formatDate, formatLocal, instantOfLocal, localOfInstant, parseDate, parseLocal } from './wall-clock';

/** When and how an event repeats: its time shape and rule as stored. */
export interface EventSchedule {
  isAllDay: boolean;
  /** Timed shape: the first start (UTC instant, whole seconds), optional end, IANA zone. */
  startsAt: Date | null;
  endsAt: Date | null;
  timeZone: string | null;
  /** All-day shape: `YYYY-MM-DD`, end exclusive. */
  startDate: string | null;
  endDate: string | null;
  rrule: string | null;
}

/** One occurrence: its identity and the span that windows and ordering use. */
export interface Occurrence {
  /** Local start `YYYY-MM-DDTHH:MM:SS` (timed) or the date `YYYY-MM-DD` (all-day). */
  recurrenceId: string;
  /** Timed: the UTC start. All-day: the date at 00:00Z. */
  start: Date;
  /** Timed: the UTC end, null when open-ended. All-day: the exclusive end date at 00:00Z. */
  end: Date | null;
}

const DAY_MS = 86_400_000;
/** Local times are within a day of UTC: the floating search range is widened by that much. */
const ZONE_MARGIN_MS = DAY_MS;
/** A rule with more occurrences than this in all is treated as unbounded when bounding it. */
const BOUNDED_SCAN = 20_000;

/**
 * The occurrences of one event (design.md §12). The rule is expanded by `rrule` in floating local
 * time (the wall clock of the event's zone, or dates for all-day events), and each local start is
 * placed in the zone by `wall-clock.ts`, so a weekly 18:00 Europe/Berlin event stays at 18:00 local.
 */
export class OccurrenceSeries {
  private readonly parsed: RecurrenceRule | null;
  private readonly options: Partial<Options> | null;
  /** The rule expanded from the first start. */
  private readonly rule: RRule | null;
  /** The first local start (floating). */
  private readonly firstLocal: Date;
  /** What one occurrence lasts, in ms (null: timed and open-ended). */
  readonly spanMs: number | null;

  constructor(private readonly schedule: EventSchedule) {
    if (schedule.isAllDay) {
      this.firstLocal = parseDate(schedule.startDate!)!;
      this.spanMs = schedule.endDate
        ? parseDate(schedule.endDate)!.getTime() - this.firstLocal.getTime()
        : DAY_MS;
    } else {
      this.firstLocal = localOfInstant(schedule.startsAt!, schedule.timeZone!);
      this.spanMs = schedule.endsAt ? schedule.endsAt.getTime() - schedule.startsAt!.getTime() : null;
    }
    this.parsed = schedule.rrule ? parseRecurrenceRule(schedule.rrule) : null;
    this.options = this.parsed
      ? ruleOptions(
          this.parsed,
          this.firstLocal,
          this.parsed.until ? this.untilLocal(this.parsed.until) : null,
        )
      : null;
    this.rule = this.options ? expander(this.options, null) : null;
  }

  /** Whether `UNTIL` falls before the first start (the rule would then have no occurrence). */
  untilBeforeStart(): boolean {
    const until = this.rule?.options.until;
    return Boolean(until && until.getTime() < this.firstLocal.getTime());
  }

  /** Whether the rule yields an occurrence within `FIRST_MATCH_YEARS` (first-match.ts) of the first start. */
  matchesSoon(): boolean {
    return !this.options || matchesSoon(this.options, this.firstLocal, this.options.until ?? null);
  }

  /** What a window test needs of an occurrence's duration: 0 for open-ended ones. */
  get windowSpanMs(): number {
    return this.spanMs ?? 0;
  }

  /**
   * The occurrences overlapping `[from, to)` in order: `start < to` and (`end > from`, or
   * `start >= from` without an end); at most `limit` of them.
   */
  between(from: Date, to: Date, limit: number): Occurrence[] {
    const overlaps = (occurrence: Occurrence) =>
      occurrence.start < to && (occurrence.end ? occurrence.end > from : occurrence.start >= from);
    if (!this.rule) {
      const only = this.occurrenceAt(this.firstLocal);
      return overlaps(only) && limit > 0 ? [only] : [];
    }
    const searchFrom = new Date(from.getTime() - this.windowSpanMs - ZONE_MARGIN_MS);
    const searchTo = new Date(to.getTime() + ZONE_MARGIN_MS);
    const found: Occurrence[] = [];
    this.ruleNear(searchFrom).between(searchFrom, searchTo, true, (local) => {
      const occurrence = this.occurrenceAt(local);
      if (overlaps(occurrence)) found.push(occurrence);
      return found.length < limit;
    });
    return found;
  }

  /** The occurrence with this recurrenceId, or null when the series has none such. */
  named(recurrenceId: string): Occurrence | null {
    const local = this.schedule.isAllDay ? parseDate(recurrenceId) : parseLocal(recurrenceId);
    if (!local) return null;
    // A start in a spring gap is named by the local time it moved to, up to a gap's width (at
    // most a day, generously) later than the rule's own wall-clock time.
    const earliest = this.schedule.isAllDay ? local : new Date(local.getTime() - DAY_MS);
    const candidates = this.rule
      ? this.ruleNear(earliest).between(earliest, local, true)
      : [this.firstLocal].filter((first) => first >= earliest && first <= local);
    for (const candidate of candidates.reverse()) {
      const occurrence = this.occurrenceAt(candidate);
      if (occurrence.recurrenceId === recurrenceId) return occurrence;
    }
    return null;
  }

  /** The end of the last occurrence, or null when the series does not end (or ends too far away). */
  lastEnd(): Date | null {
    if (!this.rule) return this.windowEndOf(this.occurrenceAt(this.firstLocal));
    if (this.rule.options.count === null && this.rule.options.until === null) return null;
    let last: Date | null = null;
    let seen = 0;
    this.rule.all((local) => {
      last = local;
      return ++seen < BOUNDED_SCAN;
    });
    if (seen >= BOUNDED_SCAN || last === null) return last === null ? this.firstStart() : null;
    return this.windowEndOf(this.occurrenceAt(last));
  }

  /** The earliest instant any occurrence can start. */
  firstStart(): Date {
    return this.schedule.isAllDay ? this.firstLocal : new Date(this.firstLocal.getTime() - ZONE_MARGIN_MS);
  }

  /** Where an occurrence stops counting for windows: its end, else its start. */
  private windowEndOf(occurrence: Occurrence): Date {
    return occurrence.end ?? occurrence.start;
  }

  private occurrenceAt(local: Date): Occurrence {
    if (this.schedule.isAllDay) {
      return {
        recurrenceId: formatDate(local),
        start: local,
        end: new Date(local.getTime() + this.spanMs!),
      };
    }
    const start =
      local.getTime() === this.firstLocal.getTime()
        ? this.schedule.startsAt!
        : instantOfLocal(local, this.schedule.timeZone!);
    return {
      // The local start as it happens: a wall-clock time in a spring gap has moved forward.
      recurrenceId: formatLocal(localOfInstant(start, this.schedule.timeZone!)),
      start,
      end: this.spanMs === null ? null : new Date(start.getTime() + this.spanMs),
    };
  }

  /**
   * The rule expanded from the start of its period that holds `local` (floating), so the cost
   * of an expansion is the periods of its own range, not those since the first start
   * (docs/decisions/0069-materialized-bounded-event-occurrences.md); `COUNT` rules count from the first start (at most 5000 occurrences).
   */
  private ruleNear(local: Date): RRule {
    const periodStart = laterPeriodStart(this.parsed!, this.firstLocal, local);
    return periodStart ? expander(this.options!, periodStart) : this.rule!;
  }

  /** `UNTIL` in floating local time: a UTC instant seen in the zone; a date includes its whole day. */
  private untilLocal(until: NonNullable<RecurrenceRule['until']>): Date {
    if (until.kind === 'utc' && !this.schedule.isAllDay)
      return localOfInstant(until.value, this.schedule.timeZone!);
    if (until.kind === 'date' && !this.schedule.isAllDay)
      return new Date(until.value.getTime() + DAY_MS - 1000);
    return until.value;
  }
}
