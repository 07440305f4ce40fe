import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { serviceUnavailable } from '../../common/errors/api-error';
import { AppConfig } from '../../config/app-config';
import { SharedRedis } from '../redis/shared-redis';

/**
 * Drops expired holders, then takes a slot when fewer than the cap are held. KEYS[1] the holders
 * (a sorted set scored by lease expiry); ARGV: now, expiry, holder, cap, key lifetime (ms).
 */
const TAKE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

/**
 * Long-lived connections one key (a person) may hold at once, counted across replicas when Redis
 * is there (docs/decisions/0173-stream-connection-cap-across-replicas.md). Each holder is a
 * lease in a sorted set, renewed by its holder (`renew`, at every heartbeat) and released when it
 * closes; a replica that dies leaves leases that expire after `leaseMs`. Without Redis the count
 * is this process's. Redis not answering when a slot is taken is a 503, never a pass (as rate limits).
 */
@Injectable()
export class ConnectionSlots {
  private readonly local = new Map<string, Set<string>>();

  constructor(
    private readonly redis: SharedRedis,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** Takes one of `cap` slots of `key` for `holder`; false when all are taken. */
  async take(key: string, holder: string, cap: number, leaseMs: number): Promise<boolean> {
    const redis = this.redis.commands;
    if (!redis) {
      const holders = this.local.get(key) ?? new Set<string>();
      if (holders.size >= cap) return false;
      holders.add(holder);
      this.local.set(key, holders);
      return true;
    }
    const now = this.clock.now().getTime();
    try {
      const taken = await redis.eval(TAKE, 1, this.keyOf(key), now, now + leaseMs, holder, cap, leaseMs * 2);
      return taken === 1;
    } catch {
      throw serviceUnavailable('Connection counts are unavailable');
    }
  }

  /** Extends `holder`'s lease (a failure is let go: the lease then expires on its own). */
  async renew(key: string, holder: string, leaseMs: number): Promise<void> {
    const redis = this.redis.commands;
    if (!redis) return;
    const now = this.clock.now().getTime();
    await redis
      .multi()
      .zadd(this.keyOf(key), 'XX', now + leaseMs, holder)
      .pexpire(this.keyOf(key), leaseMs * 2)
      .exec()
      .catch(() => undefined);
  }

  async release(key: string, holder: string): Promise<void> {
    const redis = this.redis.commands;
    if (!redis) {
      const holders = this.local.get(key);
      holders?.delete(holder);
      if (holders?.size === 0) this.local.delete(key);
      return;
    }
    await redis.zrem(this.keyOf(key), holder).catch(() => undefined);
  }

  private keyOf(key: string): string {
    return `${this.config.STREAM_REDIS_PREFIX}slots:${key}`;
  }
}
