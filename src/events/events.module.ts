import { Module } from '@nestjs/common';
import { DomainEventsModule } from '../infrastructure/events/domain-events.module';
import { MediaRecordsModule } from '../media';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PaginationModule } from '../common/pagination/pagination.module';
import { JobsModule } from '../infrastructure/jobs/jobs.module';
import { SearchModule } from '../search';
import { SpacesModule } from '../spaces';
import { StoreModule } from '../store';
import { EventOccurrencesController } from './controllers/event-occurrences.controller';
import { PublicSpaceEventsController } from './controllers/public-space-events.controller';
import { SpaceEventsController } from './controllers/space-events.controller';
import { UpcomingEventsController } from './controllers/upcoming-events.controller';
import { EventRecordsModule } from './event-records.module';
import { SpaceEventWriter } from '../common/imports/space-event-writer';
import { CalendarEvent } from './entities/event.entity';
import { EventOccurrence } from './entities/event-occurrence.entity';
import { OccurrenceHorizon } from './entities/occurrence-horizon.entity';
import { OccurrenceOverride } from './entities/occurrence-override.entity';
import { OccurrenceRefreshSubscriber } from './events/occurrence-refresh.subscriber';
import { OccurrencesRepository } from './repositories/occurrences.repository';
import { EventAdminService } from './services/event-admin.service';
import { EventCountService } from './services/event-count.service';
import { EventListingsService } from './services/event-listings.service';
import { EventTicketsService } from './services/event-tickets.service';
import { OccurrenceListingService } from './services/occurrence-listing.service';
import { OccurrencesService } from './services/occurrences.service';

/**
 * Events of spaces (design.md §9, §12): the admins' event and occurrence writes, the anonymous
 * occurrence reads (a space's listing, one event, the cross-space upcoming feed) over occurrences
 * materialized in `event_occurrences`, and the count behind `eventCountSummary`. Tickets come
 * from the store module's `StoreTicketsService` (`EventTicketsService`).
 */
@Module({
  imports: [
    PaginationModule,
    JobsModule,
    DomainEventsModule,
    SpacesModule,
    StoreModule,
    MediaRecordsModule,
    EventRecordsModule,
    SearchModule,
    TypeOrmModule.forFeature([CalendarEvent, EventOccurrence, OccurrenceOverride, OccurrenceHorizon]),
  ],
  controllers: [
    SpaceEventsController,
    EventOccurrencesController,
    PublicSpaceEventsController,
    UpcomingEventsController,
  ],
  providers: [
    OccurrencesRepository,
    EventAdminService,
    EventListingsService,
    OccurrencesService,
    OccurrenceListingService,
    OccurrenceRefreshSubscriber,
    EventCountService,
    EventTicketsService,
    // A space import's writes of events (docs/decisions/0232).
    { provide: SpaceEventWriter, useExisting: EventAdminService },
  ],
})
export class EventsModule {}
