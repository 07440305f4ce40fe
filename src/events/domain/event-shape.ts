import { invalidRequest, ValidationDetail } from '../../common/errors/api-error';
import { EventRequest } from '../dto/event-requests.dto';
import { FIRST_MATCH_YEARS } from './recurrence/first-match';
import { EventSchedule, OccurrenceSeries } from './recurrence/occurrence-series';
import { parseRecurrenceRule, RuleError } from './recurrence/rrule-text';
import { isKnownZone, parseDate } from './recurrence/wall-clock';

const FIRST_YEAR = 1970;
const LAST_YEAR = 2199;
const TIMED_ONLY = ['startsAt', 'endsAt', 'timeZone'] as const;
const ALL_DAY_ONLY = ['startDate', 'endDate'] as const;

/**
 * The schedule of a request (design.md §12), or a 400 listing every shape rule it breaks: the
 * fields of the other shape, a missing start or zone, an end before the start, a zone the zone
 * database does not know, an rrule outside §12 or whose UNTIL precedes the start.
 */
export function scheduleOf(request: EventRequest): { schedule: EventSchedule; series: OccurrenceSeries } {
  const details: ValidationDetail[] = [];
  const refuse = (path: string, message: string) => details.push({ path, message });
  const sent = (value: unknown) => value !== undefined && value !== null;
  let schedule: EventSchedule | null = null;
  if (request.isAllDay) {
    for (const field of TIMED_ONLY)
      if (sent(request[field])) refuse(field, `${field} is for timed events only`);
    const startDate = request.startDate ? parseDate(request.startDate) : null;
    const endDate = request.endDate ? parseDate(request.endDate) : null;
    if (!request.startDate) refuse('startDate', 'startDate is required on an all-day event');
    else if (!startDate || !inYears(startDate))
      refuse('startDate', `startDate must be a real date from ${FIRST_YEAR} to ${LAST_YEAR}`);
    if (request.endDate && !endDate) refuse('endDate', 'endDate must be a real date');
    if (startDate && endDate && endDate <= startDate)
      refuse('endDate', 'endDate must be after startDate (it is exclusive)');
    schedule = {
      isAllDay: true,
      startsAt: null,
      endsAt: null,
      timeZone: null,
      startDate: request.startDate ?? null,
      endDate: request.endDate ?? null,
      rrule: request.rrule ?? null,
    };
  } else {
    for (const field of ALL_DAY_ONLY)
      if (sent(request[field])) refuse(field, `${field} is for all-day events only`);
    const startsAt = request.startsAt ? wholeSeconds(new Date(request.startsAt)) : null;
    const endsAt = request.endsAt ? wholeSeconds(new Date(request.endsAt)) : null;
    if (!request.startsAt) refuse('startsAt', 'startsAt is required on a timed event');
    else if (!startsAt || !inYears(startsAt))
      refuse('startsAt', `startsAt must be a real time from ${FIRST_YEAR} to ${LAST_YEAR}`);
    if (request.endsAt && (!endsAt || !inYears(endsAt))) refuse('endsAt', 'endsAt must be a real time');
    if (startsAt && endsAt && endsAt < startsAt) refuse('endsAt', 'endsAt must not be before startsAt');
    if (!request.timeZone) refuse('timeZone', 'timeZone is required on a timed event');
    else if (!isKnownZone(request.timeZone)) refuse('timeZone', 'timeZone must be an IANA time zone');
    schedule = {
      isAllDay: false,
      startsAt,
      endsAt,
      timeZone: request.timeZone ?? null,
      startDate: null,
      endDate: null,
      rrule: request.rrule ?? null,
    };
  }
  if (request.rrule) {
    try {
      parseRecurrenceRule(request.rrule);
    } catch (error) {
      if (!(error instanceof RuleError)) throw error;
      refuse('rrule', error.message);
    }
  } else if (request.rrule === '') {
    refuse('rrule', 'rrule must not be empty (null for none)');
  }
  if (details.length > 0) throw invalidRequest('Invalid request', details);
  const series = new OccurrenceSeries(schedule);
  if (series.untilBeforeStart())
    throw invalidRequest('Invalid request', [{ path: 'rrule', message: 'rrule UNTIL is before the start' }]);
  if (!series.matchesSoon()) {
    const message = `rrule has no occurrence within ${FIRST_MATCH_YEARS} years of the start`;
    throw invalidRequest('Invalid request', [{ path: 'rrule', message }]);
  }
  return { schedule, series };
}

const wholeSeconds = (date: Date): Date | null =>
  Number.isNaN(date.getTime()) ? null : new Date(Math.floor(date.getTime() / 1000) * 1000);

const inYears = (date: Date) => date.getUTCFullYear() >= FIRST_YEAR && date.getUTCFullYear() <= LAST_YEAR;
