import { invalidRequest } from '../../common/errors/api-error';
import { INSTANT } from '../dto/event-requests.dto';

export const DAY_MS = 86_400_000;
export const DEFAULT_WINDOW_DAYS = 90;
export const WIDEST_WINDOW_DAYS = 366;
/** A walk reaches at most the first this many occurrences of its window. */
export const WALK_LIMIT = 500;
/** The single event looks this far ahead for its soonest occurrence. */
export const LOOK_AHEAD_DAYS = 366;

export interface EventWindow {
  from: Date;
  to: Date;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The window of a listing (api-spec.md per-route rule 3): `from` defaults to now, `to` to 90 days
 * after `from`; a window longer than 366 days or ending before it starts becomes 366 days long.
 * A malformed `from` or `to` is a 400.
 */
export function resolveWindow(from: string | undefined, to: string | undefined, now: Date): EventWindow {
  const start = from === undefined ? now : parseInstant(from, 'from');
  const requestedEnd = to === undefined ? null : parseInstant(to, 'to');
  const widest = new Date(start.getTime() + WIDEST_WINDOW_DAYS * DAY_MS);
  const end = requestedEnd ?? new Date(start.getTime() + DEFAULT_WINDOW_DAYS * DAY_MS);
  return { from: start, to: end < start || end > widest ? widest : end };
}

function parseInstant(text: string, member: 'from' | 'to'): Date {
  const value = DATE_ONLY.test(text)
    ? new Date(`${text}T00:00:00Z`)
    : INSTANT.test(text)
      ? new Date(text)
      : null;
  const year = value?.getUTCFullYear() ?? NaN;
  if (
    !value ||
    Number.isNaN(value.getTime()) ||
    year < 1900 ||
    year > 9000 ||
    !sameCalendarDate(text, value)
  ) {
    throw invalidRequest('Invalid request', [
      { path: member, message: `${member} must be an ISO 8601 date or date-time` },
    ]);
  }
  return value;
}

/** `Date` rolls 2026-02-30 over into March: the written date must be a real one. */
function sameCalendarDate(text: string, value: Date): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number);
  const offset = /([+-])(\d{2}):(\d{2})$/.exec(text);
  const shiftMs = offset
    ? (offset[1] === '+' ? 1 : -1) * (Number(offset[2]) * 60 + Number(offset[3])) * 60_000
    : 0;
  const local = new Date(value.getTime() + shiftMs);
  return local.getUTCFullYear() === year && local.getUTCMonth() + 1 === month && local.getUTCDate() === day;
}
