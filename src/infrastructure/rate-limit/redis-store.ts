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

const HIT_ALL_COMMAND = 'platRateLimitHitAll';

/** A stage waiting for the end of this turn of the event loop. */
interface PendingStage {
  hits: readonly RateLimitHit[];
  resolve(records: RateLimitRecord[]): void;
  reject(error: unknown): void;
}

/** One key of a batch: the stages' costs summed, then what it held before them and its window. */
interface Counter {
  key: string;
  ttl: number;
  cost: number;
  seen: number;
  start: number;
}

/** Keys per command at most; a turn that charged more sends several commands. */
const MAX_KEYS_PER_COMMAND = 256;

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
  private pending: PendingStage[] = [];

  constructor(
    private readonly clock: Clock,
    client: Redis,
    private readonly keyPrefix: string,
  ) {
    this.client = client as ScriptedRedis;
    // The number of keys is the command's first argument.
    this.client.defineCommand(HIT_ALL_COMMAND, { lua: HIT_ALL_SCRIPT });
    // Already one command per turn (flush): auto-pipelining would only wrap each in a pipeline,
    // whose objects, waiting for the reply, outlived young collections. A new array: ioredis shares
    // its default one between clients.
    const { options } = this.client;
    options.autoPipeliningIgnoredCommands = [
      ...(options.autoPipeliningIgnoredCommands ?? []),
      HIT_ALL_COMMAND,
    ];
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

  /**
   * Joins the batch of this turn of the event loop: the stages charged while it runs (every
   * request whose bytes arrived in the same poll) go to Redis as one command when it ends, each key
   * once with the costs summed, so a loaded replica sends one command per turn instead of one per
   * stage. Each stage still sees the count it would have seen alone, in the order stages joined.
   */
  incrementAll(hits: readonly RateLimitHit[]): Promise<RateLimitRecord[]> {
    return new Promise((resolve, reject) => {
      this.pending.push({ hits, resolve, reject });
      if (this.pending.length === 1) setImmediate(this.flush);
    });
  }

  private readonly flush = (): void => {
    const stages = this.pending;
    this.pending = [];
    const now = this.clock.now().getTime();
    let batch: PendingStage[] = [];
    let keys = 0;
    for (const stage of stages) {
      if (batch.length > 0 && keys + stage.hits.length > MAX_KEYS_PER_COMMAND) {
        this.send(batch, now);
        batch = [];
        keys = 0;
      }
      batch.push(stage);
      keys += stage.hits.length;
    }
    if (batch.length > 0) this.send(batch, now);
  };

  private send(stages: PendingStage[], now: number): void {
    const counters = new Map<string, Counter>();
    // Each stage's counters in the order of its hits, for handing the answer back.
    const countersOfStages = stages.map((stage) =>
      stage.hits.map((hit) => {
        const id = `${hit.ttl}:${hit.key}`;
        let counter = counters.get(id);
        if (counter) counter.cost += hit.cost;
        else {
          counter = { key: this.keyPrefix + hit.key, ttl: hit.ttl, cost: hit.cost, seen: 0, start: 0 };
          counters.set(id, counter);
        }
        return counter;
      }),
    );
    const keys: string[] = [];
    const windows: number[] = [];
    for (const counter of counters.values()) {
      keys.push(counter.key);
      windows.push(counter.ttl, counter.cost);
    }
    this.client.platRateLimitHitAll(keys.length, ...keys, now, ...windows).then(
      (answers) => {
        let index = 0;
        for (const counter of counters.values()) {
          // What the key held before this batch; each stage's hits then count on from there.
          counter.seen = Number(answers[index * 2]) - counter.cost;
          counter.start = Number(answers[index * 2 + 1]);
          index++;
        }
        stages.forEach((stage, position) => {
          const stageCounters = countersOfStages[position];
          stage.resolve(
            stage.hits.map((hit, hitIndex) => {
              const counter = stageCounters[hitIndex];
              counter.seen += hit.cost;
              return recordOf(counter.seen, counter.start, now, hit.ttl, hit.limit);
            }),
          );
        });
      },
      (error: unknown) => {
        for (const stage of stages) stage.reject(error);
      },
    );
  }

  private markUnhealthy(error: Error): void {
    if (this.healthy) {
      this.logger.warn(`Redis unavailable, requests are refused with 503: ${error.message}`);
    }
    this.healthy = false;
  }
}
