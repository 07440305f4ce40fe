import Redis from 'ioredis';
import { loadConfig } from '../../../src/config/app-config';
import { SharedRedis } from '../../../src/infrastructure/redis/shared-redis';
import { RedisRelay, REDIS_URL } from '../rate-limit/support';

/**
 * A replica stopping just after Redis came back: a subscriber connection closed while a
 * re-subscription of ioredis's own was in flight rejected that SUBSCRIBE with no one awaiting it,
 * an unhandled rejection (it failed a CI run). The owners of subscriber connections subscribe again
 * themselves, awaited; ioredis's own re-subscription is off.
 */
(process.env.REDIS_URL ? describe : describe.skip)(
  'a subscriber connection stopped as Redis comes back',
  () => {
    it('leaves no unhandled rejection', async () => {
      const relay = new RedisRelay(new URL(REDIS_URL));
      await relay.start();
      const redis = new SharedRedis(loadConfig({ REDIS_URL: relay.url, REDIS_TIMEOUT_MS: '2000' }));
      const unhandled: unknown[] = [];
      const record = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', record);
      try {
        const subscriber: Redis = redis.subscriber()!;
        await subscriber.subscribe('plat:test:subscriber-stop');

        await relay.stop();
        await relay.start();
        // Stop the moment it is ready again: anything it sent on reconnecting is still unanswered.
        await new Promise<void>((resolve) =>
          subscriber.once('ready', () => {
            void redis.close().then(resolve);
          }),
        );
        await new Promise((resolve) => setImmediate(resolve));
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(unhandled).toEqual([]);
      } finally {
        process.off('unhandledRejection', record);
        await redis.close();
        await relay.stop();
      }
    });
  },
);
