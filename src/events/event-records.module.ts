import { Module } from '@nestjs/common';
import { EventsRepository } from './repositories/events.repository';
import { EventExportService } from './services/event-export.service';
import { PublicEventsService } from './services/public-events.service';

/**
 * The part of the events module other modules import (`PublicEventsService`): it imports no feature
 * module, so posts can name events in entity links while `EventsModule` imports the store, which
 * imports posts (docs/decisions/0142-a-records-module-breaks-a-module-cycle.md). It also provides
 * `EventsModule` the events repository.
 */
@Module({
  providers: [EventsRepository, PublicEventsService, EventExportService],
  exports: [EventsRepository, PublicEventsService, EventExportService],
})
export class EventRecordsModule {}
