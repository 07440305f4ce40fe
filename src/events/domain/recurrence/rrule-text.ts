/**
 * The RRULE value of an event (design.md §12): RFC 5545 syntax limited to `FREQ`, `INTERVAL`,
 * `COUNT`, `UNTIL`, `BYDAY`, `BYMONTHDAY`, `BYMONTH`, `BYSETPOS`, `WKST`. Parsed here, by hand,
 * so that every refusal names its reason; the expansion is the RRULE library's.
 */

import type { ByDay, Frequency, RecurrenceRule, Until, WeekdayCode } from './recurrence-rule';
import { WEEKDAYS } from './recurrence-rule';
import { unmatchableReason } from './unmatchable-parts';

export type { ByDay, Frequency, RecurrenceRule, Until, WeekdayCode } from './recurrence-rule';
export { WEEKDAYS } from './recurrence-rule';

const FREQUENCIES: Frequency[] = ['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY'];
/** Sub-daily frequencies are refused: an event repeats at most daily (docs/decisions/0068-event-recurrence-rules.md). */
const SUB_DAILY = ['HOURLY', 'MINUTELY', 'SECONDLY'];
const PARTS = ['FREQ', 'INTERVAL', 'COUNT', 'UNTIL', 'BYDAY', 'BYMONTHDAY', 'BYMONTH', 'BYSETPOS', 'WKST'];

export const RRULE_MAX_LENGTH = 500;
export const MAX_COUNT = 5000;
export const MAX_INTERVAL = 1000;

export class RuleError extends Error {}

const INTEGER = /^[+-]?\d{1,4}$/;
const BYDAY_ITEM = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/;
const UNTIL_PATTERN = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Parses and checks an RRULE value; throws `RuleError` with the reason. */
export function parseRecurrenceRule(text: string): RecurrenceRule {
  if (text.length > RRULE_MAX_LENGTH)
    throw new RuleError(`rrule must be at most ${RRULE_MAX_LENGTH} characters`);
  // The value only (design.md §12): `RRULE:…` is a content line, and its name is not a part.
  const parts = new Map<string, string>();
  for (const part of text.split(';')) {
    const equals = part.indexOf('=');
    if (equals <= 0) throw new RuleError(`rrule part "${clip(part)}" is not NAME=VALUE`);
    const name = part.slice(0, equals).toUpperCase();
    if (!PARTS.includes(name)) throw new RuleError(`rrule part ${clip(name)} is not supported`);
    if (parts.has(name)) throw new RuleError(`rrule part ${name} appears twice`);
    parts.set(name, part.slice(equals + 1).toUpperCase());
  }
  const freqText = parts.get('FREQ');
  if (freqText === undefined) throw new RuleError('rrule must have FREQ');
  if (SUB_DAILY.includes(freqText))
    throw new RuleError(`rrule FREQ=${freqText} is not supported: at most daily`);
  if (!FREQUENCIES.includes(freqText as Frequency))
    throw new RuleError(`rrule FREQ ${clip(freqText)} is not valid`);
  const freq = freqText as Frequency;
  const rule: RecurrenceRule = {
    freq,
    interval: integerPart(parts, 'INTERVAL', 1, MAX_INTERVAL) ?? 1,
    count: integerPart(parts, 'COUNT', 1, MAX_COUNT),
    until: untilPart(parts.get('UNTIL')),
    byDay: listPart(parts, 'BYDAY', byDayItem),
    byMonthDay: listPart(parts, 'BYMONTHDAY', (item) => signedInRange(item, 'BYMONTHDAY', 31)),
    byMonth: listPart(parts, 'BYMONTH', (item) => inRange(item, 'BYMONTH', 1, 12)),
    bySetPos: listPart(parts, 'BYSETPOS', (item) => signedInRange(item, 'BYSETPOS', 366)),
    weekStart: weekStartPart(parts.get('WKST')),
  };
  checkCombination(rule);
  return rule;
}

function checkCombination(rule: RecurrenceRule): void {
  if (rule.count !== null && rule.until !== null)
    throw new RuleError('rrule must not have both COUNT and UNTIL');
  if (rule.byDay.some((day) => day.nth !== null)) {
    if (rule.freq !== 'MONTHLY' && rule.freq !== 'YEARLY') {
      throw new RuleError('rrule BYDAY with a number needs FREQ=MONTHLY or FREQ=YEARLY');
    }
    const limit = rule.freq === 'MONTHLY' || rule.byMonth.length > 0 ? 5 : 53;
    if (rule.byDay.some((day) => Math.abs(day.nth!) > limit)) {
      throw new RuleError(`rrule BYDAY numbers must be within ±${limit} here`);
    }
  }
  if (rule.freq === 'WEEKLY' && rule.byMonthDay.length > 0) {
    throw new RuleError('rrule BYMONTHDAY must not be used with FREQ=WEEKLY');
  }
  if (rule.bySetPos.length > 0 && rule.byDay.length + rule.byMonthDay.length + rule.byMonth.length === 0) {
    throw new RuleError('rrule BYSETPOS needs another BY part');
  }
  if (rule.byMonth.length > 0 && rule.byMonthDay.length > 0) {
    const possible = rule.byMonth.some((month) =>
      rule.byMonthDay.some((day) => Math.abs(day) <= DAYS_IN_MONTH[month - 1]),
    );
    if (!possible) throw new RuleError('rrule BYMONTH and BYMONTHDAY name no real date');
  }
  const unmatchable = unmatchableReason(rule);
  if (unmatchable) throw new RuleError(unmatchable);
}

function integerPart(parts: Map<string, string>, name: string, min: number, max: number): number | null {
  const text = parts.get(name);
  if (text === undefined) return null;
  return inRange(text, name, min, max);
}

function inRange(text: string, name: string, min: number, max: number): number {
  if (!/^\d{1,5}$/.test(text)) throw new RuleError(`rrule ${name} value "${clip(text)}" is not a number`);
  const value = Number(text);
  if (value < min || value > max) throw new RuleError(`rrule ${name} must be from ${min} to ${max}`);
  return value;
}

function signedInRange(text: string, name: string, max: number): number {
  if (!INTEGER.test(text)) throw new RuleError(`rrule ${name} value "${clip(text)}" is not a number`);
  const value = Number(text);
  if (value === 0 || Math.abs(value) > max)
    throw new RuleError(`rrule ${name} must be from 1 to ${max} or -${max} to -1`);
  return value;
}

function listPart<T>(parts: Map<string, string>, name: string, item: (text: string) => T): T[] {
  const text = parts.get(name);
  if (text === undefined) return [];
  const items = text.split(',');
  if (items.length > 60) throw new RuleError(`rrule ${name} has too many values`);
  return items.map(item);
}

function byDayItem(text: string): ByDay {
  const match = BYDAY_ITEM.exec(text);
  if (!match) throw new RuleError(`rrule BYDAY value "${clip(text)}" is not a weekday`);
  const nth = match[1] === undefined ? null : Number(match[1]);
  if (nth === 0) throw new RuleError('rrule BYDAY number must not be 0');
  return { weekday: match[2] as WeekdayCode, nth };
}

function weekStartPart(text: string | undefined): WeekdayCode | null {
  if (text === undefined) return null;
  if (!WEEKDAYS.includes(text as WeekdayCode))
    throw new RuleError(`rrule WKST "${clip(text)}" is not a weekday`);
  return text as WeekdayCode;
}

function untilPart(text: string | undefined): Until | null {
  if (text === undefined) return null;
  const match = UNTIL_PATTERN.exec(text);
  if (!match) throw new RuleError('rrule UNTIL must be YYYYMMDD or YYYYMMDDTHHMMSS[Z]');
  const [, year, month, day, hour, minute, second, utc] = match;
  const iso = `${year}-${month}-${day}T${hour ?? '00'}:${minute ?? '00'}:${second ?? '00'}Z`;
  const value = new Date(iso);
  if (Number.isNaN(value.getTime()) || value.toISOString().slice(0, 19) !== iso.slice(0, 19)) {
    throw new RuleError('rrule UNTIL is not a real date');
  }
  if (hour === undefined) return { kind: 'date', value };
  return { kind: utc ? 'utc' : 'floating', value };
}

const clip = (text: string) => (text.length > 20 ? `${text.slice(0, 20)}…` : text);
