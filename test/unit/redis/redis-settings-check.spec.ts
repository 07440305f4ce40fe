import Redis from 'ioredis';
import { checkMaxmemoryPolicy, SettingsLog } from '../../../src/infrastructure/redis/redis-settings-check';

/** The check's lines, by level. */
class RecordedLog implements SettingsLog {
  readonly infos: string[] = [];
  readonly warnings: string[] = [];
  log(message: string): void {
    this.infos.push(message);
  }
  warn(message: string): void {
    this.warnings.push(message);
  }
}

type Connection = Parameters<typeof checkMaxmemoryPolicy>[0];

/** A Redis as far as the check sees it: what CONFIG GET and INFO memory answer (or throw). */
function redisAnswering(config: () => Promise<unknown>, info: () => Promise<string>): Connection {
  return { config, info } as unknown as Connection;
}

const refused = (message: string) => () => Promise.reject(new Error(message));

/**
 * BullMQ keeps queued jobs as keys, so a Redis that may evict keys loses jobs
 * silently. The boot reads `maxmemory-policy` and warns, naming the setting, unless it is
 * `noeviction`; a managed Redis that refuses CONFIG is read through INFO; one that refuses both is
 * noted at info level (docs/decisions/0119-readiness-without-shared-dependencies.md).
 */
describe('Redis maxmemory-policy check at boot (0119-readiness-without-shared-dependencies)', () => {
  it('warns, naming the setting and the policy, when Redis may evict keys', async () => {
    const log = new RecordedLog();
    await checkMaxmemoryPolicy(
      redisAnswering(
        async () => ['maxmemory-policy', 'allkeys-lru'],
        async () => '',
      ),
      log,
    );
    expect(log.warnings).toEqual([
      'Redis maxmemory-policy is allkeys-lru: the job queue (BullMQ) needs noeviction, ' +
        'or Redis may evict queued jobs when it runs out of memory',
    ]);
    expect(log.infos).toEqual([]);
  });

  it('says nothing when the policy is noeviction', async () => {
    const log = new RecordedLog();
    await checkMaxmemoryPolicy(
      redisAnswering(
        async () => ['maxmemory-policy', 'noeviction'],
        async () => '',
      ),
      log,
    );
    expect(log).toEqual(new RecordedLog());
  });

  it('reads INFO memory when CONFIG is refused (managed Redis), and warns from it', async () => {
    const log = new RecordedLog();
    await checkMaxmemoryPolicy(
      redisAnswering(
        refused("ERR unknown command 'CONFIG'"),
        async () => '# Memory\r\nused_memory:1024\r\nmaxmemory_policy:volatile-lru\r\n',
      ),
      log,
    );
    expect(log.warnings).toHaveLength(1);
    expect(log.warnings[0]).toMatch(/^Redis maxmemory-policy is volatile-lru: .* needs noeviction/);
  });

  it('notes at info level, not as a warning, when neither CONFIG nor INFO tells', async () => {
    const log = new RecordedLog();
    await checkMaxmemoryPolicy(
      redisAnswering(refused("ERR unknown command 'CONFIG'"), async () => '# Memory\r\nused_memory:1024\r\n'),
      log,
    );
    expect(log.warnings).toEqual([]);
    expect(log.infos).toEqual([
      "Redis maxmemory-policy could not be checked (CONFIG GET: ERR unknown command 'CONFIG'; " +
        'INFO memory: no such setting in the answer); the job queue needs noeviction',
    ]);
  });

  it('a Redis that does not answer holds the boot up about a second per read, no longer', async () => {
    jest.useFakeTimers();
    try {
      const log = new RecordedLog();
      const never = () => new Promise<never>(() => undefined);
      const checking = checkMaxmemoryPolicy(redisAnswering(never, never), log);
      await jest.advanceTimersByTimeAsync(2000);
      await checking;
      expect(log.infos).toEqual([
        'Redis maxmemory-policy could not be checked (CONFIG GET: no answer within 1000 ms; ' +
          'INFO memory: no answer within 1000 ms); the job queue needs noeviction',
      ]);
    } finally {
      jest.useRealTimers();
    }
  });

  (process.env.REDIS_URL ? it : it.skip)(
    'reads the real Redis of this machine (ioredis replies as parsed)',
    async () => {
      const redis = new Redis(process.env.REDIS_URL!);
      try {
        const policy = (await redis.config('GET', 'maxmemory-policy')) as unknown as string[];
        const log = new RecordedLog();
        await checkMaxmemoryPolicy(redis, log);
        if (policy[1] === 'noeviction') expect(log).toEqual(new RecordedLog());
        else expect(log.warnings[0]).toContain(`maxmemory-policy is ${policy[1]}`);
      } finally {
        redis.disconnect();
      }
    },
  );
});
