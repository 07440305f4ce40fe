/**
 * The public API of the `events` module: what other modules may import (docs/architecture.md
 * "Module shape"). `EventsModule` (the routes) is registered by app.module.ts alone (it registers its
 * occurrence cards with search's `SearchItemsService`); others import `EventRecordsModule`.
 */
export { EventRecordsModule } from './event-records.module';
export { EventRequest } from './dto/event-requests.dto';
export { EventReference, PublicEventsService } from './services/public-events.service';
export { EventExportService, ExportedEvent } from './services/event-export.service';
export const PUBLISHED_VIEWS = ['searchable_events'] as const;
export { EventCanceled, EventCreated, EventUpdated } from './events/event.events';
