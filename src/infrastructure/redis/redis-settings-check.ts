import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type Redis from 'ioredis';
import { settleWithin } from '../../common/settle-within';
import { SharedRedis } from './shared-redis';

/** Each read of a setting gets this long: the check never holds the boot up for long. */
const READ_MS = 1000;

/** What the check writes; Nest's Logger in the service, a recorder in unit tests. */
export interface SettingsLog {
  log(message: string): void;
  warn(message: string): void;
}

type PolicyRead = { policy: string } | { refused: string };

/**
 * BullMQ keeps queued jobs as Redis keys, so a Redis that evicts keys under memory pressure drops
 * jobs silently: it needs `maxmemory-policy noeviction` (README, "Operating it"). Read with
 * `CONFIG GET`, else from `INFO memory` (managed services such as ElastiCache refuse CONFIG but
 * answer INFO); a Redis that refuses both is reported at info level, not as a fault.
 */
export async function checkMaxmemoryPolicy(
  redis: Pick<Redis, 'config' | 'info'>,
  logger: SettingsLog,
): Promise<void> {
  const policy = await readPolicy(redis);
  if ('refused' in policy) {
    logger.log(
      `Redis maxmemory-policy could not be checked (${policy.refused}); the job queue needs noeviction`,
    );
  } else if (policy.policy !== 'noeviction') {
    logger.warn(
      `Redis maxmemory-policy is ${policy.policy}: the job queue (BullMQ) needs noeviction, ` +
        'or Redis may evict queued jobs when it runs out of memory',
    );
  }
}

async function readPolicy(redis: Pick<Redis, 'config' | 'info'>): Promise<PolicyRead> {
  const fromConfig = await read(async () => {
    const reply = (await redis.config('GET', 'maxmemory-policy')) as unknown as string[];
    return reply[1];
  });
  if ('policy' in fromConfig) return fromConfig;
  const fromInfo = await read(async () => /^maxmemory_policy:(\S+)/m.exec(await redis.info('memory'))?.[1]);
  if ('policy' in fromInfo) return fromInfo;
  return { refused: `CONFIG GET: ${fromConfig.refused}; INFO memory: ${fromInfo.refused}` };
}

async function read(query: () => Promise<string | undefined>): Promise<PolicyRead> {
  const answer = query().then(
    (policy): PolicyRead => (policy ? { policy } : { refused: 'no such setting in the answer' }),
    (error: unknown): PolicyRead => ({ refused: error instanceof Error ? error.message : String(error) }),
  );
  return settleWithin(answer, READ_MS, { refused: `no answer within ${READ_MS} ms` });
}

/** Runs the check once at boot, on the shared command connection, when REDIS_URL is set. */
@Injectable()
export class RedisSettingsCheck implements OnApplicationBootstrap {
  private readonly logger = new Logger('Redis');

  constructor(private readonly redis: SharedRedis) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.redis.commands) await checkMaxmemoryPolicy(this.redis.commands, this.logger);
  }
}
