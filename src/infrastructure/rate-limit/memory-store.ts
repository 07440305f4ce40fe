import { Clock } from '../../common/clock/clock';
import { RateLimitHit, RateLimitRecord, RateLimitStore, recordOf } from './rate-limit-store';

interface Window {
  start: number;
  ttl: number;
  hits: number;
}

/** Counters in this process (no REDIS_URL): one replica's view, lost on restart. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, Window>();
  private lastSweep: number;

  constructor(
    private readonly clock: Clock,
    /** Closed windows are dropped at most this often (the longest window is a good value). */
    private readonly sweepEveryMs: number,
  ) {
    this.lastSweep = clock.now().getTime();
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    _blockDuration?: number,
    _throttlerName?: string,
    cost = 1,
  ): Promise<RateLimitRecord> {
    return this.hit(this.clock.now().getTime(), key, ttl, limit, cost);
  }

  /** Answered at once: the limiter then continues the request without a promise. */
  incrementAll(hits: readonly RateLimitHit[]): RateLimitRecord[] {
    const now = this.clock.now().getTime();
    const records: RateLimitRecord[] = [];
    for (const { key, ttl, limit, cost } of hits) records.push(this.hit(now, key, ttl, limit, cost));
    return records;
  }

  private hit(now: number, key: string, ttl: number, limit: number, cost: number): RateLimitRecord {
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || now >= window.start + window.ttl) {
      window = { start: now, ttl, hits: 0 };
      this.windows.set(key, window);
    }
    window.hits += cost;
    return recordOf(window.hits, window.start, now, ttl, limit);
  }

  /** Number of open windows (tests). */
  get size(): number {
    return this.windows.size;
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < this.sweepEveryMs) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) {
      if (now >= window.start + window.ttl) this.windows.delete(key);
    }
  }
}
