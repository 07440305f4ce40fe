import { Global, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { RedisSettingsCheck } from './redis-settings-check';
import { SharedRedis } from './shared-redis';

/** The replica's Redis connections, shared by every module that keeps state in Redis; its settings checked at boot. */
@Global()
@Module({
  providers: [
    {
      provide: SharedRedis,
      inject: [AppConfig],
      useFactory: async (config: AppConfig) => {
        const redis = new SharedRedis(config);
        await redis.connect();
        return redis;
      },
    },
    RedisSettingsCheck,
  ],
  exports: [SharedRedis],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(private readonly redis: SharedRedis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.close();
  }
}
