import type { RequestPrincipal } from '../auth/request-authenticator';

/**
 * The events module's admin write of one event, as `POST /spaces/{space}/events` makes it, for a
 * space import (docs/decisions/0232-space-import-events-and-the-store.md). The events module
 * provides it (`EventAdminService`); the import finds it at run time, since `EventsModule` imports
 * search, whose index loads posts, which load the events index: the import cannot import it.
 */
export abstract class SpaceEventWriter {
  /** `request` is an `EventRequest` the route's validation passed. */
  abstract create(principal: RequestPrincipal, space: string, request: object): Promise<{ id: string }>;
}
