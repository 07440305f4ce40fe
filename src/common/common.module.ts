import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE, DiscoveryModule } from '@nestjs/core';
import { AppConfig } from '../config/app-config';
import { IdempotencyModule } from '../infrastructure/idempotency/idempotency.module';
import { RateLimitModule } from '../infrastructure/rate-limit/rate-limit.module';
import { AuthModule } from '../protocol';
import { RouteAccessAudit } from './auth/route-access.audit';
import { RouteAccessGuard } from './auth/route-access.guard';
import { AllExceptionsFilter } from './errors/all-exceptions.filter';
import { createValidationPipe } from './validation.pipe';

/**
 * The request pipeline registered as app-level providers (not in main.ts) so that every way of
 * booting AppModule, tests included, gets the same filter, pipe and guard. The guard verifies
 * through AuthModule, charges through RateLimitModule's hooks and reserves Idempotency-Keys through
 * IdempotencyModule; the filter gives refused writes' jti back through AuthModule's hook. Imported
 * by AppModule only.
 */
@Module({
  imports: [DiscoveryModule, AuthModule, RateLimitModule, IdempotencyModule],
  providers: [
    RouteAccessAudit,
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
    { provide: APP_PIPE, inject: [AppConfig], useFactory: createValidationPipe },
    { provide: APP_GUARD, useClass: RouteAccessGuard },
  ],
})
export class CommonModule {}
