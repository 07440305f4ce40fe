import { Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE, DiscoveryModule } from '@nestjs/core';
import { Clock } from './clock/clock';
import { RouteAccessAudit } from './auth/route-access.audit';
import { RouteAccessGuard } from './auth/route-access.guard';
import { AllExceptionsFilter } from './errors/all-exceptions.filter';
import { CursorCodec } from './pagination/cursor-codec';
import { createValidationPipe } from './validation.pipe';

/**
 * Cross-cutting pieces registered as app-level providers (not in main.ts) so that every way of
 * booting AppModule, tests included, gets the same filter, pipe and guards.
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [
    CursorCodec,
    Clock,
    RouteAccessAudit,
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
    { provide: APP_PIPE, useFactory: createValidationPipe },
    { provide: APP_GUARD, useClass: RouteAccessGuard },
  ],
  exports: [CursorCodec, Clock],
})
export class CommonModule {}
