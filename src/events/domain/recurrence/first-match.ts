import { Options } from 'rrule';
import { expander } from './rule-options';

/** A rule must yield an occurrence this soon after its first start (docs/decisions/0068-event-recurrence-rules.md). */
export const FIRST_MATCH_YEARS = 50;
/** `rrule` stops stepping after this year. */
const LAST_RRULE_YEAR = 9999;

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const newYearWeekday = (year: number) => new Date(Date.UTC(year, 0, 1)).getUTCDay();

/**
 * Whether the rule (options with the defaults explicit, see rule-options.ts) yields an occurrence
 * within `FIRST_MATCH_YEARS` of `first` (floating), and before `until`.
 *
 * `rrule` only stops at a matching date or after year 9999: a rule that never matches would be
 * searched to year 9999 (seconds). So the search runs on a calendar twin placed just before 9999:
 * years with the same weekdays and leap years for the whole span hold the same occurrences, shifted
 * by a whole number of weeks, and there `rrule`'s own end bounds the search to a few decades
 * (about three centuries when the span holds a year like 2100 that is not leap).
 */
export function matchesSoon(options: Partial<Options>, first: Date, until: Date | null): boolean {
  const year = first.getUTCFullYear();
  const twin = calendarTwin(year);
  const shiftMs = Date.UTC(twin, 0, 1) - Date.UTC(year, 0, 1);
  const spanEnd = new Date(first.getTime() + shiftMs);
  spanEnd.setUTCFullYear(twin + FIRST_MATCH_YEARS);
  let found: Date | null = null;
  expander(
    {
      ...options,
      dtstart: new Date(first.getTime() + shiftMs),
      until: until ? new Date(Math.min(until.getTime() + shiftMs, spanEnd.getTime())) : spanEnd,
      count: null,
    },
    null,
  ).all((date) => {
    found = date;
    return false;
  });
  return found !== null;
}

/** The latest year whose next `FIRST_MATCH_YEARS` years have the calendar of `year`'s (+400 n works). */
function calendarTwin(year: number): number {
  for (let twin = LAST_RRULE_YEAR - FIRST_MATCH_YEARS; twin > year; twin--) {
    if (newYearWeekday(twin) !== newYearWeekday(year)) continue;
    let same = true;
    for (let offset = 0; offset <= FIRST_MATCH_YEARS && same; offset++) {
      same = isLeap(twin + offset) === isLeap(year + offset);
    }
    if (same) return twin;
  }
  return year;
}
