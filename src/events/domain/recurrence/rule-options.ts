import { Options, RRule, Weekday } from 'rrule';
import { RecurrenceRule, WEEKDAYS } from './recurrence-rule';

/**
 * The `rrule` options of a rule, and the same rule started at a later period. `rrule` steps period
 * by period from `dtstart`, so expanding near a date far from the first start would cost every
 * period in between (a daily event asked about year 9999: millions of steps). Every default that
 * `rrule` would take from `dtstart` is spelled out here, so a rule started at the beginning of a
 * later period of its own (same phase of `INTERVAL`) yields exactly the original's occurrences from
 * that period on. Not for `COUNT` rules: their count starts at the real first start.
 */

const DAY_MS = 86_400_000;
const FREQUENCY = { YEARLY: RRule.YEARLY, MONTHLY: RRule.MONTHLY, WEEKLY: RRule.WEEKLY, DAILY: RRule.DAILY };

/** Monday 0 … Sunday 6, as `rrule` numbers weekdays. */
const weekdayOf = (date: Date) => (date.getUTCDay() + 6) % 7;

/** The options of `rule` starting at `first` (floating local time), defaults explicit. */
export function ruleOptions(rule: RecurrenceRule, first: Date, until: Date | null): Partial<Options> {
  const noDaySelection = rule.byDay.length === 0 && rule.byMonthDay.length === 0;
  const byMonthDay = rule.byMonthDay.length
    ? rule.byMonthDay
    : noDaySelection && (rule.freq === 'YEARLY' || rule.freq === 'MONTHLY')
      ? [first.getUTCDate()]
      : null;
  const byMonth = rule.byMonth.length
    ? rule.byMonth
    : noDaySelection && rule.freq === 'YEARLY'
      ? [first.getUTCMonth() + 1]
      : null;
  const byWeekday = rule.byDay.length
    ? rule.byDay.map((day) => {
        const weekday = new Weekday(WEEKDAYS.indexOf(day.weekday));
        return day.nth === null ? weekday : weekday.nth(day.nth);
      })
    : noDaySelection && rule.freq === 'WEEKLY'
      ? [new Weekday(weekdayOf(first))]
      : null;
  return {
    freq: FREQUENCY[rule.freq],
    dtstart: first,
    interval: rule.interval,
    count: rule.count,
    until,
    byweekday: byWeekday,
    bymonthday: byMonthDay,
    bymonth: byMonth,
    bysetpos: rule.bySetPos.length ? rule.bySetPos : null,
    byhour: [first.getUTCHours()],
    byminute: [first.getUTCMinutes()],
    bysecond: [first.getUTCSeconds()],
    wkst: rule.weekStart ? WEEKDAYS.indexOf(rule.weekStart) : RRule.MO.weekday,
  };
}

/**
 * The start (00:00, floating) of the rule's latest period that begins at or before `target`, when
 * that is a later period than the first one; else null (expand from the first start).
 */
export function laterPeriodStart(rule: RecurrenceRule, first: Date, target: Date): Date | null {
  if (rule.count !== null || target <= first) return null;
  const firstDay = Math.floor(first.getTime() / DAY_MS);
  const targetDay = Math.floor(target.getTime() / DAY_MS);
  switch (rule.freq) {
    case 'DAILY':
      return periodsOfDays(firstDay, targetDay, rule.interval);
    case 'WEEKLY': {
      const weekStart = rule.weekStart ? WEEKDAYS.indexOf(rule.weekStart) : 0;
      const firstWeek = firstDay - ((weekdayOf(first) - weekStart + 7) % 7);
      return periodsOfDays(firstWeek, targetDay, rule.interval * 7);
    }
    case 'MONTHLY': {
      const firstMonth = first.getUTCFullYear() * 12 + first.getUTCMonth();
      const targetMonth = target.getUTCFullYear() * 12 + target.getUTCMonth();
      const periods = Math.floor((targetMonth - firstMonth) / rule.interval);
      if (periods < 1) return null;
      const month = firstMonth + periods * rule.interval;
      return new Date(Date.UTC(Math.floor(month / 12), month % 12, 1));
    }
    case 'YEARLY': {
      const periods = Math.floor((target.getUTCFullYear() - first.getUTCFullYear()) / rule.interval);
      if (periods < 1) return null;
      return new Date(Date.UTC(first.getUTCFullYear() + periods * rule.interval, 0, 1));
    }
  }
}

function periodsOfDays(firstPeriodDay: number, targetDay: number, periodDays: number): Date | null {
  const periods = Math.floor((targetDay - firstPeriodDay) / periodDays);
  return periods < 1 ? null : new Date((firstPeriodDay + periods * periodDays) * DAY_MS);
}

/** The rule as `rrule` expands it: from its first start, or from a later period start. */
export function expander(options: Partial<Options>, periodStart: Date | null): RRule {
  return new RRule(periodStart ? { ...options, dtstart: periodStart } : options, true);
}
