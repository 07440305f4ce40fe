import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import Redis from 'ioredis';
import { bootApp, TestApp } from '../../support/app';
import { CapturedLog } from '../../support/log-capture';
import { closedPort } from '../../support/network';

const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;

/**
 * The boot reads Redis's `maxmemory-policy` and warns when it is not `noeviction`
 * (BullMQ's queued jobs would be evicted under memory pressure). Against a Redis of the test's own,
 * set up as a managed service often is: CONFIG disabled (so the policy is read from INFO) and an
 * evicting policy (docs/decisions/0119-readiness-without-shared-dependencies.md).
 */
(hasRedisServer ? describe : describe.skip)(
  `Redis settings checked at boot (0119-readiness-without-shared-dependencies, e2e)${hasRedisServer ? '' : ' [skipped: needs redis-server]'}`,
  () => {
    const log = new CapturedLog();
    let server: ChildProcess;
    let url: string;
    let t: TestApp | undefined;

    beforeAll(async () => {
      const port = await closedPort();
      server = spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'no',
          '--maxmemory-policy',
          'allkeys-lru',
          '--rename-command',
          'CONFIG',
          '',
        ],
        { stdio: 'ignore' },
      );
      url = `redis://127.0.0.1:${port}`;
      await untilAnswering(url);
    });

    afterAll(async () => {
      await t?.close();
      server?.kill();
    });

    it('warns once, naming maxmemory-policy and its value, when Redis may evict the queue', async () => {
      t = await bootApp({ env: { REDIS_URL: url, LOG_LEVEL: 'info' }, override: log.install });
      const lines = log.lines().filter((line) => line.msg?.includes('maxmemory-policy'));
      expect(lines).toEqual([
        expect.objectContaining({
          level: 40,
          msg:
            'Redis maxmemory-policy is allkeys-lru: the job queue (BullMQ) needs noeviction, ' +
            'or Redis may evict queued jobs when it runs out of memory',
        }),
      ]);
    });
  },
);

async function untilAnswering(url: string): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    const redis = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      await redis.ping();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      redis.disconnect();
    }
  }
  throw new Error('redis-server never answered');
}
