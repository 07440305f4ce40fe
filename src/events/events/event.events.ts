/**
 * Domain events of the events module, emitted inside the admin write's transaction (webhooks
 * deliver them: docs/decisions/0161-webhook-events-and-payloads.md). `visibility` is the event's
 * after the write (`public`, `members`, `draft`).
 */

/** An event was created. */
export class EventCreated {
  constructor(
    readonly spaceId: string,
    readonly eventId: string,
    readonly visibility: string,
  ) {}
}

/** An event was replaced (PUT). */
export class EventUpdated {
  constructor(
    readonly spaceId: string,
    readonly eventId: string,
    readonly visibility: string,
  ) {}
}

/** An event was deleted: canceled with all its occurrences. */
export class EventCanceled {
  constructor(
    readonly spaceId: string,
    readonly eventId: string,
    readonly visibility: string,
  ) {}
}
