import { IANAZone } from 'luxon';

/**
 * Local wall-clock times in an IANA zone (design.md §12). A local time is carried as a "floating"
 * Date whose UTC fields are the local fields, the form the RRULE library expands in.
 */

const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;
const DAY_MS = 86_400_000;

/** Whether the zone database (the runtime's ICU tz data) knows the name. */
export function isKnownZone(name: string): boolean {
  return ZONE_NAME.test(name) && IANAZone.isValidZone(name);
}

const offsetMs = (zone: IANAZone, instantMs: number) => zone.offset(instantMs) * 60_000;

/**
 * The instant of a local wall-clock time: a time in the spring gap moves forward by the gap (the
 * offset before the change applies), an ambiguous autumn time takes the first (earlier) instant.
 */
export function instantOfLocal(local: Date, zoneName: string): Date {
  const zone = IANAZone.create(zoneName);
  const wall = local.getTime();
  const before = offsetMs(zone, wall - DAY_MS);
  const after = offsetMs(zone, wall + DAY_MS);
  const candidates = [wall - before, wall - after].filter(
    (instant, index) => offsetMs(zone, instant) === (index === 0 ? before : after),
  );
  if (candidates.length === 0) return new Date(wall - before);
  return new Date(Math.min(...candidates));
}

/** The local wall-clock time (floating) of an instant in the zone. */
export function localOfInstant(instant: Date, zoneName: string): Date {
  const zone = IANAZone.create(zoneName);
  return new Date(instant.getTime() + offsetMs(zone, instant.getTime()));
}

/** `YYYY-MM-DDTHH:MM:SS` of a floating local time. */
export const formatLocal = (local: Date): string => local.toISOString().slice(0, 19);

/** `YYYY-MM-DD` of a floating date. */
export const formatDate = (date: Date): string => date.toISOString().slice(0, 10);

const LOCAL_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A floating local time from `YYYY-MM-DDTHH:MM:SS`, or null when malformed or not a real time. */
export function parseLocal(text: string): Date | null {
  const match = LOCAL_PATTERN.exec(text);
  if (!match) return null;
  const date = new Date(`${text}Z`);
  return Number.isNaN(date.getTime()) || formatLocal(date) !== text ? null : date;
}

/** A floating date (00:00) from `YYYY-MM-DD`, or null when malformed or not a real date. */
export function parseDate(text: string): Date | null {
  if (!DATE_PATTERN.test(text)) return null;
  const date = new Date(`${text}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || formatDate(date) !== text ? null : date;
}
