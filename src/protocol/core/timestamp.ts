import { ProtocolError } from './errors';
import { MAX_FUTURE_SKEW_MS } from './limits';

/** Injected clock: protocol code never reads the wall clock itself. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

/**
 * `YYYY-MM-DDTHH:MM:SS.sssZ` exactly: fixed width and zero padded, so byte-wise string order equals
 * chronological order and ordering/head selection never parse timestamps.
 */
const CREATED_AT_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})Z$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Grammar plus a real calendar instant: valid month/day (leap years honoured), no `:60`. */
export function isValidCreatedAt(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = CREATED_AT_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59
  );
}

export function assertCreatedAt(value: unknown, what = 'createdAt'): asserts value is string {
  if (!isValidCreatedAt(value)) {
    throw new ProtocolError('MALFORMED', `${what} must be YYYY-MM-DDTHH:MM:SS.sssZ (a real UTC instant)`);
  }
}

/** Epoch milliseconds of a valid createdAt (years 0000–0099 included, unlike Date.UTC). */
export function createdAtToEpochMs(createdAt: string): number {
  assertCreatedAt(createdAt);
  const [year, month, day, hour, minute, second, ms] = CREATED_AT_PATTERN.exec(createdAt)!
    .slice(1)
    .map(Number);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime();
}

/** Credential time basis: integer Unix seconds, floored (never rounded). */
export function createdAtToUnixSeconds(createdAt: string): number {
  return Math.floor(createdAtToEpochMs(createdAt) / 1000);
}

/** `Date#toISOString` already emits the grammar for years 0000–9999. */
export function formatCreatedAt(date: Date): string {
  const value = date.toISOString();
  if (!isValidCreatedAt(value))
    throw new ProtocolError('MALFORMED', `date outside the createdAt range: ${value}`);
  return value;
}

export function nowCreatedAt(clock: Clock = systemClock): string {
  return formatCreatedAt(clock());
}

/**
 * A createdAt for a new op that must follow `previous` strictly: now, or previous + 1 ms when the
 * clock has not moved past it (two ops signed within one millisecond, or a clock step back).
 */
export function nextCreatedAt(previous: string | null, clock: Clock = systemClock): string {
  const now = clock().getTime();
  const floor = previous === null ? -Infinity : createdAtToEpochMs(previous) + 1;
  return formatCreatedAt(new Date(Math.max(now, floor)));
}

/** Ingest guard: a createdAt more than 24 h ahead would dominate head selection forever. */
export function assertNotTooFarInFuture(createdAt: string, now: Date): void {
  if (createdAtToEpochMs(createdAt) - now.getTime() > MAX_FUTURE_SKEW_MS) {
    throw new ProtocolError('TIMESTAMP_FUTURE', `createdAt ${createdAt} is more than 24 hours in the future`);
  }
}
