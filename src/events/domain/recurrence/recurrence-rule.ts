/** A parsed RRULE value (rrule-text.ts parses and checks it; the other recurrence files read it). */

export type Frequency = 'YEARLY' | 'MONTHLY' | 'WEEKLY' | 'DAILY';
export type WeekdayCode = 'MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA' | 'SU';

export const WEEKDAYS: WeekdayCode[] = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

export interface ByDay {
  weekday: WeekdayCode;
  /** The nth weekday of the month (MONTHLY) or year (YEARLY); negative counts from the end. */
  nth: number | null;
}

/** `UNTIL` as written: a UTC instant (`…Z`), a floating local time, or a date. */
export type Until =
  { kind: 'utc'; value: Date } | { kind: 'floating'; value: Date } | { kind: 'date'; value: Date };

export interface RecurrenceRule {
  freq: Frequency;
  interval: number;
  count: number | null;
  until: Until | null;
  byDay: ByDay[];
  byMonthDay: number[];
  byMonth: number[];
  bySetPos: number[];
  weekStart: WeekdayCode | null;
}
