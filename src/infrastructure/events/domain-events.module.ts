import { Module } from '@nestjs/common';
import { DomainEvents } from './domain-events.service';

/** Imported by every module that emits or subscribes to domain events (one instance per app). */
@Module({
  providers: [DomainEvents],
  exports: [DomainEvents],
})
export class DomainEventsModule {}
