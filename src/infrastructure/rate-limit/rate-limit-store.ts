import { ThrottlerStorage } from '@nestjs/throttler';

/** @nestjs/throttler's record (its type is not exported by name). */
type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * Counters of fixed windows, one per key, on @nestjs/throttler's storage contract (so a
 * ThrottlerGuard added to a route would share them). A window opens at the first hit of a key and
 * lasts `ttl` ms on the injected clock; every hit counts, refused ones included, and the count
 * starts over when the window has passed. `blockDuration` is not used: a key over its limit stays
 * refused until its window ends. The record adds the time left in milliseconds (`retryAfterMs`).
 * A hit weighs `cost` units (default 1), so work counted per item is one atomic step.
 */
export interface RateLimitStore extends ThrottlerStorage {
  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
    cost?: number,
  ): Promise<RateLimitRecord>;

  /**
   * One hit on each of several keys as one step (one Redis command for all of them): the budgets
   * of one stage. Records come back in the order of `hits`; a store that can answer at once (in
   * memory) answers with the array itself.
   */
  incrementAll(hits: readonly RateLimitHit[]): RateLimitRecord[] | Promise<RateLimitRecord[]>;
}

export interface RateLimitHit {
  key: string;
  ttl: number;
  limit: number;
  cost: number;
}

export interface RateLimitRecord extends ThrottlerStorageRecord {
  /** Milliseconds until the window of this key ends (1 ... ttl). */
  msToExpire: number;
}

export const RATE_LIMIT_STORE = Symbol('RateLimitStore');

/** The record for a window of `ttl` ms that opened at `start`, now holding `hits`. */
export function recordOf(
  hits: number,
  start: number,
  now: number,
  ttl: number,
  limit: number,
): RateLimitRecord {
  // Capped: a replica whose clock runs behind the one that opened the window never sees more than ttl.
  const msToExpire = Math.min(ttl, Math.max(1, start + ttl - now));
  const seconds = Math.ceil(msToExpire / 1000);
  const isBlocked = hits > limit;
  return {
    totalHits: hits,
    timeToExpire: seconds,
    isBlocked,
    timeToBlockExpire: isBlocked ? seconds : 0,
    msToExpire,
  };
}
