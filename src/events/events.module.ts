import { Module } from '@nestjs/common';
import { MediaRecordsModule } from '../media';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PaginationModule } from '../common/pagination/pagination.module';
import { JobsModule } from '../infrastructure/jobs/jobs.module';
import { SpacesModule } from '../spaces';
import { EventAdminController } from './controllers/event-admin.controller';
import { PublicEventsController } from './controllers/public-events.controller';
import { CalendarEvent } from './entities/event.entity';
import { EventOccurrence } from './entities/event-occurrence.entity';
import { OccurrenceHorizon } from './entities/occurrence-horizon.entity';
import { OccurrenceOverride } from './entities/occurrence-override.entity';
import { EventAdminService } from './event-admin.service';
import { EventCount } from './event-count';
import { EventListingsService } from './event-listings.service';
import { OccurrenceRefresh } from './occurrence-refresh';
import { OccurrenceSlots } from './occurrence-slots';
import { OccurrenceStore } from './occurrence-store';
import { TicketEntries } from './ticket-entries';
import { StoreModule } from '../store';

/**
 * Events of spaces (design.md §9, §12): the admins' event and occurrence writes, the anonymous
 * occurrence reads (a space's listing, one event, the cross-space upcoming feed) over occurrences
 * materialized in `event_occurrences`, and the count behind `eventCountSummary`. Tickets come
 * from the store module's `TicketCatalog` (`TicketEntries`).
 */
@Module({
  imports: [
    PaginationModule,
    JobsModule,
    SpacesModule,
    StoreModule,
    MediaRecordsModule,
    TypeOrmModule.forFeature([CalendarEvent, EventOccurrence, OccurrenceOverride, OccurrenceHorizon]),
  ],
  controllers: [EventAdminController, PublicEventsController],
  providers: [
    EventAdminService,
    EventListingsService,
    OccurrenceStore,
    OccurrenceSlots,
    OccurrenceRefresh,
    EventCount,
    TicketEntries,
  ],
})
export class EventsModule {}
