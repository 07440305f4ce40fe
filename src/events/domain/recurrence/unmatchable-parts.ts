import type { RecurrenceRule } from './recurrence-rule';

/**
 * Combinations of parts that select no date in any period, whatever the start: refused with their
 * reason, as `rrule` would search such a rule until year 9999. What depends on the start or on
 * INTERVAL (e.g. `FREQ=DAILY;INTERVAL=7;BYDAY=TU` from a Monday) is caught by first-match.ts.
 */
export function unmatchableReason(rule: RecurrenceRule): string | null {
  const numbered = rule.byDay.filter((day) => day.nth !== null);
  if (numbered.length > 0 && numbered.length < rule.byDay.length) {
    // `rrule` keeps only the days both kinds select (1MO,FR: never), not their union (RFC 5545).
    return 'rrule BYDAY must not mix numbered and plain weekdays';
  }
  if (selectsWithinMonths(rule) && numbered.length > 0 && rule.byMonthDay.length > 0) {
    const common = numbered.some((day) =>
      rule.byMonthDay.some((monthDay) => canCoincide(day.nth!, monthDay)),
    );
    if (!common) return 'rrule BYDAY numbers and BYMONTHDAY select no common day';
  }
  if (rule.bySetPos.length > 0) {
    const largest = largestPeriodSet(rule);
    if (rule.bySetPos.some((position) => Math.abs(position) > largest)) {
      return `rrule BYSETPOS never matches: a ${rule.freq} period of this rule holds at most ${largest} dates`;
    }
  }
  return null;
}

/** Whether BYDAY numbers and BYMONTHDAY count within months (MONTHLY, or YEARLY with BYMONTH). */
const selectsWithinMonths = (rule: RecurrenceRule): boolean =>
  rule.freq === 'MONTHLY' || (rule.freq === 'YEARLY' && rule.byMonth.length > 0);

/** Whether the nth weekday of some month (28–31 days) can fall on that BYMONTHDAY. */
function canCoincide(nth: number, monthDay: number): boolean {
  for (let length = 28; length <= 31; length++) {
    const day = monthDay > 0 ? monthDay : length + 1 + monthDay;
    const first = nth > 0 ? 7 * nth - 6 : length + 1 + 7 * nth;
    if (day >= 1 && day <= length && day >= first && day <= first + 6) return true;
  }
  return false;
}

/** An upper bound on the dates one period selects before BYSETPOS (one time of day each). */
function largestPeriodSet(rule: RecurrenceRule): number {
  const months = rule.byMonth.length > 0 ? new Set(rule.byMonth).size : 12;
  const plain = new Set(rule.byDay.filter((day) => day.nth === null).map((day) => day.weekday)).size;
  const numbered = new Set(rule.byDay.filter((day) => day.nth !== null).map((d) => `${d.nth}${d.weekday}`))
    .size;
  const monthDays = new Set(rule.byMonthDay).size;
  const perMonth = rule.freq === 'MONTHLY' ? 1 : months;
  const bounds: number[] = [];
  switch (rule.freq) {
    case 'DAILY':
      return 1;
    case 'WEEKLY':
      return plain || 1;
    case 'MONTHLY':
    case 'YEARLY': {
      const monthScope = selectsWithinMonths(rule);
      if (monthDays) bounds.push(perMonth * monthDays);
      if (plain) bounds.push(monthScope ? perMonth * plain * 5 : plain * 53);
      if (numbered) bounds.push(monthScope ? perMonth * numbered : numbered);
      // Without BYDAY or BYMONTHDAY the start's day of the month is the one day of each month.
      return bounds.length > 0
        ? Math.min(...bounds)
        : rule.freq === 'YEARLY' && rule.byMonth.length > 0
          ? months
          : 1;
    }
  }
}
