import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AUTHENTICATION_HOOKS } from '../../common/auth/route-access.guard';
import { AppConfig } from '../../config/app-config';
import { BudgetTable } from './budgets';
import { Clock } from '../../common/clock/clock';
import { MemoryRateLimitStore } from './memory-store';
import { RATE_LIMIT_STORE, RateLimitStore } from './rate-limit-store';
import { RateLimitAuthenticationHooks } from './rate-limit.hooks';
import { RateLimitMiddleware } from './rate-limit.middleware';
import { RateLimiter } from './rate-limiter.service';
import { RateLimitRoutes } from './rate-limit-routes';
import { RedisRateLimitStore } from './redis-store';
import { SharedRedis } from '../redis/shared-redis';
import { MetricsModule } from '../metrics/metrics.module';

/** Counters in Redis when REDIS_URL is set (shared by replicas), else in this process. */
function createStore(config: AppConfig, clock: Clock, redis: SharedRedis): RateLimitStore {
  if (!redis.commands || config.RATE_LIMIT_DISABLED) {
    return new MemoryRateLimitStore(clock, config.RATE_LIMIT_WINDOW_MS);
  }
  return new RedisRateLimitStore(clock, redis.commands, config.RATE_LIMIT_REDIS_PREFIX);
}

/**
 * Rate limits of api-spec.md "Limits" and design.md §6: the per-IP stage as the first Express
 * middleware (app.factory.ts, before body parsing), the `pop-capture` and per-grant stages as hooks of the route access guard. Windows run on
 * the service's Clock (CommonModule), which tests replace.
 */
@Module({
  imports: [DiscoveryModule, MetricsModule],
  providers: [
    { provide: BudgetTable, inject: [AppConfig], useFactory: (config: AppConfig) => new BudgetTable(config) },
    { provide: RATE_LIMIT_STORE, inject: [AppConfig, Clock, SharedRedis], useFactory: createStore },
    RateLimitRoutes,
    RateLimiter,
    RateLimitMiddleware,
    { provide: AUTHENTICATION_HOOKS, useClass: RateLimitAuthenticationHooks },
  ],
  exports: [AUTHENTICATION_HOOKS, RateLimiter, RateLimitMiddleware],
})
export class RateLimitModule {}
