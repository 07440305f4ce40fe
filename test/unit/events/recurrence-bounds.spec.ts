import { RRule } from 'rrule';
import { OccurrenceSeries } from '../../../src/events/domain/recurrence/occurrence-series';
import { laterPeriodStart } from '../../../src/events/domain/recurrence/rule-options';
import { parseRecurrenceRule, RuleError } from '../../../src/events/domain/recurrence/rrule-text';

const utcSeries = (startsAt: string, rrule: string) =>
  new OccurrenceSeries({
    isAllDay: false,
    startsAt: new Date(startsAt),
    endsAt: null,
    timeZone: 'UTC',
    startDate: null,
    endDate: null,
    rrule,
  });

/** What `rrule` itself gives, stepping from the first start (UTC: local time is the instant). */
const reference = (startsAt: string, rrule: string, from: Date, to: Date) =>
  new RRule({ ...RRule.parseString(rrule), dtstart: new Date(startsAt) }, true)
    .between(from, to, true)
    .map((date) => date.toISOString());

const RULES: [string, string][] = [
  ['2026-01-05T18:00:00Z', 'FREQ=DAILY'],
  ['2026-01-05T18:00:00Z', 'FREQ=DAILY;INTERVAL=3;BYDAY=MO,FR'],
  ['2026-01-31T07:30:00Z', 'FREQ=DAILY;INTERVAL=7;BYMONTHDAY=1,-1,15'],
  ['2026-01-07T09:00:00Z', 'FREQ=WEEKLY'],
  ['2026-01-07T09:00:00Z', 'FREQ=WEEKLY;INTERVAL=3;BYDAY=MO,WE,SU;WKST=SU'],
  ['2026-01-07T09:00:00Z', 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;BYSETPOS=-1'],
  ['2026-01-07T09:00:00Z', 'FREQ=WEEKLY;INTERVAL=5;BYMONTH=3,9;BYDAY=SA'],
  ['2026-01-31T20:00:00Z', 'FREQ=MONTHLY'],
  ['2026-01-31T20:00:00Z', 'FREQ=MONTHLY;INTERVAL=5;BYDAY=-1FR,2TU'],
  ['2026-01-30T09:00:00Z', 'FREQ=MONTHLY;INTERVAL=2;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1,1'],
  ['2026-02-01T12:00:00Z', 'FREQ=MONTHLY;INTERVAL=7;BYMONTH=1,2,3,4,5,6;BYMONTHDAY=-3'],
  ['2028-02-29T10:00:00Z', 'FREQ=YEARLY'],
  ['2026-03-15T10:00:00Z', 'FREQ=YEARLY;INTERVAL=3;BYMONTH=6'],
  ['2026-03-15T10:00:00Z', 'FREQ=YEARLY;BYDAY=20MO,-1SU'],
  ['2026-03-15T10:00:00Z', 'FREQ=YEARLY;INTERVAL=2;BYMONTH=2,11;BYDAY=-1TH;BYSETPOS=1'],
  ['2026-03-15T10:00:00Z', 'FREQ=DAILY;UNTIL=20410101T000000Z'],
];

describe('bounded expansion (docs/decisions/0069-materialized-bounded-event-occurrences.md)', () => {
  it.each(RULES)('%s %s: a window years later has what stepping from the start gives', (startsAt, rrule) => {
    const series = utcSeries(startsAt, rrule);
    for (const [from, to] of [
      ['2026-01-01T00:00:00Z', '2026-06-01T00:00:00Z'],
      ['2031-05-17T13:00:00Z', '2032-05-17T00:00:00Z'],
      ['2040-12-20T00:00:00Z', '2041-02-03T00:00:00Z'],
    ]) {
      const window = [new Date(from), new Date(to)] as const;
      const found = series.between(window[0], window[1], 1000).map((o) => o.start.toISOString());
      expect(found).toEqual(reference(startsAt, rrule, window[0], new Date(window[1].getTime() - 1000)));
      for (const start of found) expect(series.named(start.slice(0, 19))?.start.toISOString()).toBe(start);
    }
  });

  it('starts an expansion in the period holding the search start, in the rule’s own phase', () => {
    const first = new Date('2026-01-07T09:00:00Z'); // a Wednesday
    const start = (rule: string, target: string) =>
      laterPeriodStart(parseRecurrenceRule(rule), first, new Date(target))?.toISOString() ?? null;
    expect(start('FREQ=DAILY;INTERVAL=3', '2026-01-12T00:00:00Z')).toBe('2026-01-10T00:00:00.000Z');
    expect(start('FREQ=DAILY', '9999-12-30T17:00:00Z')).toBe('9999-12-30T00:00:00.000Z');
    // Weeks begin on WKST (Monday by default): 2026-01-05 is the first week's Monday.
    expect(start('FREQ=WEEKLY;INTERVAL=2', '2026-01-25T00:00:00Z')).toBe('2026-01-19T00:00:00.000Z');
    expect(start('FREQ=WEEKLY;WKST=SU', '2026-01-25T00:00:00Z')).toBe('2026-01-25T00:00:00.000Z');
    expect(start('FREQ=MONTHLY;INTERVAL=5', '2027-01-15T00:00:00Z')).toBe('2026-11-01T00:00:00.000Z');
    expect(start('FREQ=YEARLY;INTERVAL=4', '2037-01-01T00:00:00Z')).toBe('2034-01-01T00:00:00.000Z');
    // Within the first period, and for COUNT (counted from the first start): from the first start.
    expect(start('FREQ=WEEKLY', '2026-01-10T00:00:00Z')).toBeNull();
    expect(start('FREQ=DAILY;COUNT=5000', '2030-01-01T00:00:00Z')).toBeNull();
  });

  it('answers an occurrence named in year 9999 without stepping there from the start', () => {
    const series = utcSeries('2026-01-05T18:00:00Z', 'FREQ=DAILY');
    const stepped = jest.spyOn(RRule.prototype, 'between');
    expect(series.named('9999-12-30T18:00:00')?.start.toISOString()).toBe('9999-12-30T18:00:00.000Z');
    expect(series.named('9999-12-30T18:00:01')).toBeNull();
    // The expanders used start in the named day's period, not on 2026-01-05.
    for (const call of stepped.mock.instances) {
      expect((call as unknown as RRule).options.dtstart.getUTCFullYear()).toBe(9999);
    }
    stepped.mockRestore();
  });

  it.each([
    ['FREQ=MONTHLY;BYDAY=MO;BYSETPOS=6', 'a month has at most five Mondays'],
    ['FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=-11', 'nor ten Mondays and Tuesdays'],
    ['FREQ=WEEKLY;BYDAY=MO,TU;BYSETPOS=3', 'a week of this rule holds two days'],
    ['FREQ=WEEKLY;BYSETPOS=2;BYMONTH=1', 'a week holds the start’s weekday only'],
    ['FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=1,2;BYSETPOS=3', 'two days of one month a year'],
    ['FREQ=YEARLY;BYDAY=1MO,-1MO;BYSETPOS=3', 'two numbered weekdays a year'],
    ['FREQ=YEARLY;BYDAY=SU;BYSETPOS=54', 'a year has at most 53 Sundays'],
    ['FREQ=MONTHLY;BYDAY=1MO;BYMONTHDAY=15', 'the first Monday is on the 1st to the 7th'],
    ['FREQ=MONTHLY;BYDAY=-1FR;BYMONTHDAY=1,2,3,-8', 'the last Friday is on one of the last seven days'],
    ['FREQ=YEARLY;BYMONTH=5;BYDAY=2SU;BYMONTHDAY=1', 'the second Sunday of May is the 8th to the 14th'],
    ['FREQ=MONTHLY;BYDAY=1MO,FR', 'rrule would keep days both select (first Mondays that are Fridays)'],
  ])('refuses %s (never matches: %s)', (rule) => {
    expect(() => parseRecurrenceRule(rule)).toThrow(RuleError);
  });

  it.each([
    'FREQ=MONTHLY;BYDAY=MO;BYSETPOS=5',
    'FREQ=MONTHLY;BYDAY=MO;BYSETPOS=-5',
    'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1',
    'FREQ=WEEKLY;BYDAY=MO,TU;BYSETPOS=2',
    'FREQ=YEARLY;BYDAY=MO;BYSETPOS=53',
    'FREQ=YEARLY;BYMONTH=1,7;BYMONTHDAY=1;BYSETPOS=-2',
    'FREQ=MONTHLY;BYDAY=2MO;BYMONTHDAY=8,9,10,11,12,13,14',
    'FREQ=MONTHLY;BYDAY=-1SU;BYMONTHDAY=-1',
    'FREQ=MONTHLY;BYDAY=5SA;BYMONTHDAY=31',
  ])('accepts %s', (rule) => {
    expect(() => parseRecurrenceRule(rule)).not.toThrow();
  });

  it.each<[string, string, boolean]>([
    // From a Monday, every seventh day is a Monday.
    ['2026-01-05T18:00:00Z', 'FREQ=DAILY;INTERVAL=7;BYDAY=TU', false],
    ['2026-01-05T18:00:00Z', 'FREQ=DAILY;INTERVAL=7;BYDAY=MO', true],
    // Januaries only.
    ['2026-01-05T18:00:00Z', 'FREQ=MONTHLY;INTERVAL=12;BYMONTH=3', false],
    ['2026-03-05T18:00:00Z', 'FREQ=MONTHLY;INTERVAL=12;BYMONTH=3', true],
    // 2027, 2031, …: never a leap year.
    ['2027-01-05T18:00:00Z', 'FREQ=YEARLY;INTERVAL=4;BYMONTH=2;BYMONTHDAY=29', false],
    // 2098, then 2100 (not leap), then 2104: across a century that is not a leap year.
    ['2098-01-05T18:00:00Z', 'FREQ=YEARLY;INTERVAL=2;BYMONTH=2;BYMONTHDAY=29', true],
    ['2097-01-05T18:00:00Z', 'FREQ=YEARLY;INTERVAL=8;BYMONTH=2;BYMONTHDAY=29', false],
    // A 29 February that is a Monday: 2044.
    ['2026-01-05T18:00:00Z', 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO', true],
    // Only after UNTIL.
    ['2026-03-05T18:00:00Z', 'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;UNTIL=20270101', false],
    ['2026-03-05T18:00:00Z', 'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;UNTIL=20280229', true],
  ])('from %s, %s has an occurrence within 50 years: %s', (startsAt, rrule, expected) => {
    const stepped = jest.spyOn(RRule.prototype, 'all');
    expect(utcSeries(startsAt, rrule).matchesSoon()).toBe(expected);
    expect(stepped).toHaveBeenCalled();
    // The search runs on a calendar twin that rrule's own end (year 9999) stops within centuries.
    for (const rule of stepped.mock.instances) {
      expect((rule as unknown as RRule).options.dtstart.getUTCFullYear()).toBeGreaterThan(9600);
    }
    stepped.mockRestore();
  });

  it('places far-future occurrences in their zone without error', () => {
    const series = new OccurrenceSeries({
      isAllDay: false,
      startsAt: new Date('2027-01-05T23:00:00Z'),
      endsAt: null,
      timeZone: 'America/New_York',
      startDate: null,
      endDate: null,
      rrule: 'FREQ=DAILY',
    });
    expect(series.named('9999-12-31T18:00:00')?.start.toISOString()).toBe('9999-12-31T23:00:00.000Z');
  });
});
