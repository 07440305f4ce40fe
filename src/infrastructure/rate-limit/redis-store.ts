import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { Clock } from '../../common/clock/clock';
import { RateLimitHit, RateLimitRecord, RateLimitStore, recordOf } from './rate-limit-store';

/**
 * One atomic step of fixed windows, each kept in a hash {s: window start, n: hits}: a hit on every
 * key given. ARGV[1] is the time, then a (ttl, cost) pair per key; the answer is {hits, start} per
 * key, flattened. The window start comes from the caller's clock, so every replica and the tests'
 * injected clock agree on windows; Redis only expires a key once its window is over. The budgets
 * of one stage cost one command, not one each.
 */
const HIT_ALL_SCRIPT = `
local now = tonumber(ARGV[1])
local answers = {}
for i, key in ipairs(KEYS) do
  local ttl = tonumber(ARGV[i * 2])
  local cost = tonumber(ARGV[i * 2 + 1])
  local start = tonumber(redis.call('HGET', key, 's'))
  if start == nil or now >= start + ttl then
    redis.call('HSET', key, 's', ARGV[1], 'n', cost)
    redis.call('PEXPIRE', key, ttl)
    answers[#answers + 1] = cost
    answers[#answers + 1] = now
  else
    answers[#answers + 1] = redis.call('HINCRBY', key, 'n', cost)
    answers[#answers + 1] = start
  end
end
return answers
`;

type ScriptedRedis = Redis & {
  platRateLimitHitAll(...keysThenArgs: (string | number)[]): Promise<number[]>;
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
    // The number of keys is the command's first argument.
    this.client.defineCommand('platRateLimitHitAll', { lua: HIT_ALL_SCRIPT });
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
    const [record] = await this.incrementAll([{ key, ttl, limit, cost }]);
    return record;
  }

  async incrementAll(hits: readonly RateLimitHit[]): Promise<RateLimitRecord[]> {
    const now = this.clock.now().getTime();
    const keys = hits.map((hit) => this.keyPrefix + hit.key);
    const windows = hits.flatMap((hit) => [hit.ttl, hit.cost]);
    const answers = await this.client.platRateLimitHitAll(hits.length, ...keys, now, ...windows);
    return hits.map((hit, index) =>
      recordOf(Number(answers[index * 2]), Number(answers[index * 2 + 1]), now, hit.ttl, hit.limit),
    );
  }

  private markUnhealthy(error: Error): void {
    if (this.healthy) {
      this.logger.warn(`Redis unavailable, requests are refused with 503: ${error.message}`);
    }
    this.healthy = false;
  }
}
