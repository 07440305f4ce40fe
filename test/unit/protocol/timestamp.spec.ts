import {
  assertNotTooFarInFuture,
  createdAtToEpochMs,
  createdAtToUnixSeconds,
  isValidCreatedAt,
  nextCreatedAt,
  nowCreatedAt,
} from '../../../src/protocol/core';
import { protocolError } from './helpers';

describe('createdAt grammar', () => {
  it.each([
    '2026-03-07T00:00:00.000Z',
    '2024-02-29T12:34:56.789Z', // leap year
    '2000-02-29T00:00:00.000Z', // divisible by 400
    '0000-01-01T00:00:00.000Z',
    '9999-12-31T23:59:59.999Z',
    '2026-04-30T23:59:59.000Z',
  ])('accepts %s', (value) => {
    expect(isValidCreatedAt(value)).toBe(true);
  });

  it.each([
    ['offset +00:00', '2026-03-07T00:00:00.000+00:00'],
    ['offset -05:00', '2026-03-07T00:00:00.000-05:00'],
    ['lowercase z', '2026-03-07T00:00:00.000z'],
    ['lowercase t', '2026-03-07t00:00:00.000Z'],
    ['space separator', '2026-03-07 00:00:00.000Z'],
    ['no fraction', '2026-03-07T00:00:00Z'],
    ['1 fraction digit', '2026-03-07T00:00:00.0Z'],
    ['2 fraction digits', '2026-03-07T00:00:00.00Z'],
    ['4 fraction digits', '2026-03-07T00:00:00.0000Z'],
    ['6 fraction digits', '2026-03-07T00:00:00.000000Z'],
    ['leap second', '2016-12-31T23:59:60.000Z'],
    ['Feb 29 in a non-leap year', '2023-02-29T00:00:00.000Z'],
    ['Feb 29 in 1900 (century)', '1900-02-29T00:00:00.000Z'],
    ['April 31', '2026-04-31T00:00:00.000Z'],
    ['month 13', '2026-13-01T00:00:00.000Z'],
    ['month 00', '2026-00-10T00:00:00.000Z'],
    ['day 00', '2026-03-00T00:00:00.000Z'],
    ['hour 24', '2026-03-07T24:00:00.000Z'],
    ['minute 60', '2026-03-07T00:60:00.000Z'],
    ['unpadded month', '2026-3-07T00:00:00.000Z'],
    ['expanded year', '+02026-03-07T00:00:00.000Z'],
    ['leading whitespace', ' 2026-03-07T00:00:00.000Z'],
    ['trailing newline', '2026-03-07T00:00:00.000Z\n'],
    ['no zone', '2026-03-07T00:00:00.000'],
    ['non-ASCII digits', '２026-03-07T00:00:00.000Z'],
    ['date only', '2026-03-07'],
  ])('refuses %s', (_name, value) => {
    expect(isValidCreatedAt(value)).toBe(false);
  });

  it('refuses non-strings', () => {
    expect(isValidCreatedAt(1772841600000)).toBe(false);
    expect(isValidCreatedAt(null)).toBe(false);
  });
});

describe('createdAt helpers', () => {
  const clock = () => new Date('2026-03-07T12:00:00.123Z');

  it('formats the injected clock', () => {
    expect(nowCreatedAt(clock)).toBe('2026-03-07T12:00:00.123Z');
  });

  it('nextCreatedAt is strictly after the previous op even when the clock has not moved', () => {
    expect(nextCreatedAt(null, clock)).toBe('2026-03-07T12:00:00.123Z');
    expect(nextCreatedAt('2026-03-07T12:00:00.123Z', clock)).toBe('2026-03-07T12:00:00.124Z');
    expect(nextCreatedAt('2026-03-07T13:00:00.000Z', clock)).toBe('2026-03-07T13:00:00.001Z');
    expect(nextCreatedAt('2026-03-07T11:00:00.000Z', clock)).toBe('2026-03-07T12:00:00.123Z');
  });

  it('converts to epoch ms (years below 100 included) and floors to Unix seconds', () => {
    expect(createdAtToEpochMs('1970-01-01T00:00:01.500Z')).toBe(1500);
    expect(createdAtToUnixSeconds('1970-01-01T00:00:01.999Z')).toBe(1);
    expect(new Date(createdAtToEpochMs('0050-06-01T00:00:00.000Z')).toISOString()).toBe(
      '0050-06-01T00:00:00.000Z',
    );
  });

  it('bounds createdAt to 24 hours ahead of the verifier clock, inclusive', () => {
    const now = new Date('2026-03-07T00:00:00.000Z');
    expect(() => assertNotTooFarInFuture('2026-03-08T00:00:00.000Z', now)).not.toThrow();
    expect(protocolError(() => assertNotTooFarInFuture('2026-03-08T00:00:00.001Z', now)).code).toBe(
      'TIMESTAMP_FUTURE',
    );
    expect(() => assertNotTooFarInFuture('2020-01-01T00:00:00.000Z', now)).not.toThrow();
  });
});
