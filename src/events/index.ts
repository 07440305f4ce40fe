/**
 * The public API of the `events` module: what other modules may import (docs/architecture.md
 * "Module shape"). `EventsModule` (the routes) is registered by app.module.ts alone; others import
 * `EventRecordsModule`.
 */
export { EventRecordsModule } from './event-records.module';
export { EventReference, PublicEventsService } from './services/public-events.service';
export { EventCanceled, EventCreated, EventUpdated } from './events/event.events';
