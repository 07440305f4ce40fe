import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { Clock } from '../../common/clock/clock';
import { RateLimitRecord, RateLimitStore, recordOf } from './rate-limit-store';

/**
 * One atomic step of a fixed window kept in a hash {s: window start, n: hits}: a hit of ARGV[3]
 * units. The window start comes from the caller's clock (ARGV[1]), so every replica and the tests'
 * injected clock agree on windows; Redis only expires the key once the window is over.
 */
const HIT_SCRIPT = `
local now = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local start = tonumber(redis.call('HGET', KEYS[1], 's'))
if start == nil or now >= start + ttl then
  redis.call('HSET', KEYS[1], 's', ARGV[1], 'n', cost)
  redis.call('PEXPIRE', KEYS[1], ttl)
  return {cost, now}
end
return {redis.call('HINCRBY', KEYS[1], 'n', cost), start}
`;

type ScriptedRedis = Redis & {
  platRateLimitHit(key: string, now: number, ttl: number, cost: number): Promise<[number, number]>;
};

/**
 * Counters shared by every replica through Redis, on the replica's shared command connection
 * (SharedRedis: no offline queue, REDIS_TIMEOUT_MS per command). Never fails open: while Redis is
 * unreachable or slower than the timeout, `increment` rejects (the limiter answers 503).
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly logger = new Logger('RateLimit');
  readonly client: ScriptedRedis;
  private healthy = true;

  constructor(
    private readonly clock: Clock,
    client: Redis,
    private readonly keyPrefix: string,
  ) {
    this.client = client as ScriptedRedis;
    this.client.defineCommand('platRateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.client.on('error', (error: Error) => this.markUnhealthy(error));
    this.client.on('ready', () => {
      if (!this.healthy) this.logger.log('Redis answers again; rate limiting resumed');
      this.healthy = true;
    });
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    _blockDuration?: number,
    _throttlerName?: string,
    cost = 1,
  ): Promise<RateLimitRecord> {
    const now = this.clock.now().getTime();
    const [hits, start] = await this.client.platRateLimitHit(this.keyPrefix + key, now, ttl, cost);
    return recordOf(Number(hits), Number(start), now, ttl, limit);
  }

  private markUnhealthy(error: Error): void {
    if (this.healthy) {
      this.logger.warn(`Redis unavailable, requests are refused with 503: ${error.message}`);
    }
    this.healthy = false;
  }
}
