import type { Scenario } from '../scenario-kit';
import { EVENTS_PER_SPACE, OTHER_EVENTS, SMALL_SPACE_DOMAIN } from '../seed-plan';

/**
 * The event listings (issue 15), on the seed's events (bench/seed.ts): the small space's
 * occurrences of the default window (now to 90 days on: one-off events, a weekly and a daily
 * series) and the cross-space feed of every discoverable space's public occurrences. Both read
 * `event_occurrences`, which the app materializes itself at boot (OccurrenceRefresh).
 */
export const eventsScenarios: Scenario[] = [
  {
    name: `space events listing (${EVENTS_PER_SPACE} events, 100 occurrences)`,
    group: 'read',
    request: () => ({ method: 'GET', path: `/v1/spaces/${SMALL_SPACE_DOMAIN}/events?limit=100` }),
    against: { kind: 'twin', handler: 'space events' },
    target: { ratio: 0.6 },
  },
  {
    name: `upcoming events feed (${OTHER_EVENTS.toLocaleString('en')} events, 100 occurrences)`,
    group: 'read',
    request: () => ({ method: 'GET', path: '/v1/events/upcoming?limit=100' }),
    against: { kind: 'twin', handler: 'upcoming events' },
    target: { ratio: 0.6 },
  },
];
