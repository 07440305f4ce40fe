import { EventSchedule, OccurrenceSeries } from '../../../src/events/domain/recurrence/occurrence-series';
import { parseRecurrenceRule, RuleError } from '../../../src/events/domain/recurrence/rrule-text';
import { isKnownZone } from '../../../src/events/domain/recurrence/wall-clock';

const timed = (startsAt: string, timeZone: string, rrule: string | null, endsAt: string | null = null) =>
  new OccurrenceSeries({
    isAllDay: false,
    startsAt: new Date(startsAt),
    endsAt: endsAt ? new Date(endsAt) : null,
    timeZone,
    startDate: null,
    endDate: null,
    rrule,
  } satisfies EventSchedule);

const allDay = (startDate: string, endDate: string | null, rrule: string | null) =>
  new OccurrenceSeries({
    isAllDay: true,
    startsAt: null,
    endsAt: null,
    timeZone: null,
    startDate,
    endDate,
    rrule,
  });

const list = (series: OccurrenceSeries, from: string, to: string, limit = 100) =>
  series.between(new Date(from), new Date(to), limit).map((o) => ({
    id: o.recurrenceId,
    start: o.start.toISOString(),
    end: o.end?.toISOString() ?? null,
  }));
const starts = (series: OccurrenceSeries, from: string, to: string) =>
  list(series, from, to).map((o) => `${o.id} ${o.start}`);

describe('event recurrence in real time zones (design.md §12)', () => {
  it('keeps a weekly 18:00 Europe/Berlin event at 18:00 local across the March and October changes', () => {
    const series = timed('2026-03-19T17:00:00Z', 'Europe/Berlin', 'FREQ=WEEKLY');
    expect(starts(series, '2026-03-19T00:00:00Z', '2026-04-03T00:00:00Z')).toEqual([
      '2026-03-19T18:00:00 2026-03-19T17:00:00.000Z',
      '2026-03-26T18:00:00 2026-03-26T17:00:00.000Z',
      '2026-04-02T18:00:00 2026-04-02T16:00:00.000Z',
    ]);
    expect(starts(series, '2026-10-20T00:00:00Z', '2026-11-01T00:00:00Z')).toEqual([
      '2026-10-22T18:00:00 2026-10-22T16:00:00.000Z',
      '2026-10-29T18:00:00 2026-10-29T17:00:00.000Z',
    ]);
  });

  it('repeats on the last Friday of each month (BYDAY=-1FR)', () => {
    const series = timed('2026-01-30T18:00:00Z', 'UTC', 'FREQ=MONTHLY;BYDAY=-1FR');
    expect(list(series, '2026-01-01T00:00:00Z', '2026-05-01T00:00:00Z').map((o) => o.id)).toEqual([
      '2026-01-30T18:00:00',
      '2026-02-27T18:00:00',
      '2026-03-27T18:00:00',
      '2026-04-24T18:00:00',
    ]);
  });

  it('picks by position within the period (BYSETPOS: the last weekday of the month)', () => {
    const series = timed('2026-01-30T09:00:00Z', 'UTC', 'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1');
    expect(
      list(series, '2026-01-01T00:00:00Z', '2026-05-01T00:00:00Z').map((o) => o.id.slice(0, 10)),
    ).toEqual(['2026-01-30', '2026-02-27', '2026-03-31', '2026-04-30']);
  });

  it('stops after COUNT occurrences and at UNTIL (inclusive)', () => {
    const counted = timed('2026-01-01T10:00:00Z', 'UTC', 'FREQ=DAILY;COUNT=3');
    expect(list(counted, '2025-12-01T00:00:00Z', '2026-12-01T00:00:00Z')).toHaveLength(3);
    expect(counted.lastEnd()?.toISOString()).toBe('2026-01-03T10:00:00.000Z');
    const until = timed('2026-01-01T10:00:00Z', 'UTC', 'FREQ=DAILY;UNTIL=20260105T100000Z');
    expect(list(until, '2025-12-01T00:00:00Z', '2026-12-01T00:00:00Z').map((o) => o.id.slice(0, 10))).toEqual(
      ['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04', '2026-01-05'],
    );
    expect(timed('2026-01-10T10:00:00Z', 'UTC', 'FREQ=DAILY;UNTIL=20260105').untilBeforeStart()).toBe(true);
  });

  it('spans an all-day multi-day event over [startDate 00:00Z, endDate 00:00Z) and repeats the dates', () => {
    const series = allDay('2026-07-10', '2026-07-13', 'FREQ=WEEKLY;COUNT=2');
    expect(list(series, '2026-07-12T00:00:00Z', '2026-07-12T01:00:00Z')).toEqual([
      { id: '2026-07-10', start: '2026-07-10T00:00:00.000Z', end: '2026-07-13T00:00:00.000Z' },
    ]);
    expect(list(series, '2026-07-13T00:00:00Z', '2026-08-01T00:00:00Z').map((o) => o.id)).toEqual([
      '2026-07-17',
    ]);
    expect(
      list(allDay('2026-07-10', null, null), '2026-07-10T23:59:59Z', '2026-07-11T00:00:00Z'),
    ).toHaveLength(1);
  });

  it('moves 02:30 America/New_York forward by the gap on the spring-forward day, named by its local start', () => {
    const series = timed('2026-03-07T07:30:00Z', 'America/New_York', 'FREQ=DAILY', '2026-03-07T08:30:00Z');
    expect(list(series, '2026-03-07T00:00:00Z', '2026-03-10T00:00:00Z')).toEqual([
      { id: '2026-03-07T02:30:00', start: '2026-03-07T07:30:00.000Z', end: '2026-03-07T08:30:00.000Z' },
      // design.md §12: recurrenceId and localStart are the local start, 03:30 EDT once moved.
      { id: '2026-03-08T03:30:00', start: '2026-03-08T07:30:00.000Z', end: '2026-03-08T08:30:00.000Z' },
      { id: '2026-03-09T02:30:00', start: '2026-03-09T06:30:00.000Z', end: '2026-03-09T07:30:00.000Z' },
    ]);
    expect(series.named('2026-03-08T03:30:00')?.start.toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(series.named('2026-03-08T02:30:00')).toBeNull();
    expect(series.named('2026-03-09T02:30:00')?.start.toISOString()).toBe('2026-03-09T06:30:00.000Z');
    expect(series.named('2026-03-09T03:30:00')).toBeNull();
  });

  it('takes the first of an ambiguous autumn time', () => {
    const series = timed('2026-10-31T05:30:00Z', 'America/New_York', 'FREQ=DAILY;COUNT=3');
    expect(starts(series, '2026-10-30T00:00:00Z', '2026-11-05T00:00:00Z')).toEqual([
      '2026-10-31T01:30:00 2026-10-31T05:30:00.000Z',
      '2026-11-01T01:30:00 2026-11-01T05:30:00.000Z',
      '2026-11-02T01:30:00 2026-11-02T06:30:00.000Z',
    ]);
  });

  it('finds a Pacific/Auckland occurrence from a UTC window on the previous UTC day', () => {
    const series = timed('2026-01-04T20:00:00Z', 'Pacific/Auckland', 'FREQ=WEEKLY;BYDAY=MO');
    expect(starts(series, '2026-01-04T00:00:00Z', '2026-01-05T00:00:00Z')).toEqual([
      '2026-01-05T09:00:00 2026-01-04T20:00:00.000Z',
    ]);
    expect(series.named('2026-01-12T09:00:00')?.start.toISOString()).toBe('2026-01-11T20:00:00.000Z');
    expect(series.named('2026-01-13T09:00:00')).toBeNull();
  });

  it('selects by overlap: open-ended from its start, timed ones until their end', () => {
    const open = timed('2026-05-01T10:00:00Z', 'UTC', null);
    expect(list(open, '2026-05-01T10:00:00Z', '2026-05-02T00:00:00Z')).toHaveLength(1);
    expect(list(open, '2026-05-01T10:00:01Z', '2026-05-02T00:00:00Z')).toHaveLength(0);
    const lasting = timed('2026-05-01T10:00:00Z', 'UTC', null, '2026-05-01T12:00:00Z');
    expect(list(lasting, '2026-05-01T11:59:59Z', '2026-05-02T00:00:00Z')).toHaveLength(1);
    expect(list(lasting, '2026-05-01T12:00:00Z', '2026-05-02T00:00:00Z')).toHaveLength(0);
    expect(list(lasting, '2026-04-01T00:00:00Z', '2026-05-01T10:00:00Z')).toHaveLength(0);
  });

  it('refuses what §12 does not accept, with a reason', () => {
    const refused = [
      'FREQ=SECONDLY',
      'FREQ=HOURLY',
      'FREQ=DAILY;BYHOUR=9',
      'FREQ=DAILY;COUNT=2;UNTIL=20260101',
      'FREQ=DAILY;BYSETPOS=2;BYDAY=MO',
      'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30',
      'FREQ=WEEKLY;BYDAY=2MO',
      'FREQ=WEEKLY;BYMONTHDAY=3',
      'INTERVAL=2',
      'FREQ=DAILY;FREQ=DAILY',
      'FREQ=DAILY;UNTIL=2026-01-01',
      'FREQ=DAILY;COUNT=0',
      'FREQ=MONTHLY;BYMONTHDAY=0',
      `FREQ=DAILY;${'X'.repeat(10_000)}`,
      // A content line, not an RRULE value.
      'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;WKST=SU',
    ];
    for (const rule of refused) expect(() => parseRecurrenceRule(rule)).toThrow(RuleError);
    expect(parseRecurrenceRule('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;WKST=SU').interval).toBe(2);
  });

  it('knows zones from the zone database', () => {
    expect(isKnownZone('Europe/Berlin')).toBe(true);
    expect(isKnownZone('America/Argentina/Buenos_Aires')).toBe(true);
    expect(isKnownZone('Mars/Olympus_Mons')).toBe(false);
    expect(isKnownZone('')).toBe(false);
  });
});
