import { walkCursors, type PageEnvelope } from '../cursor-walk';
import type { PlanContext, Scenario } from '../scenario-kit';
import { EVENTS_PER_SPACE, OTHER_EVENTS, SMALL_SPACE_DOMAIN } from '../seed-plan';

/**
 * The event listings (docs/decisions/0078-the-store-and-events-benchmarks.md), on the seed's events (bench/seed.ts): the small space's
 * occurrences of the default window (now to 90 days on: one-off events, a weekly and a daily
 * series) and the cross-space feed of every discoverable space's public occurrences (OTHER_EVENTS
 * over the directory's spaces, a third weekly): a full page of 100, the first page of 20 and the
 * 25th page of 20, reached by walking 24 pages by their cursors (a walk reaches the window's first
 * 500 occurrences, so page 25 is the last; a keyset page should cost what the first one costs).
 * Both read `event_occurrences`, which the app materializes itself at boot
 * (OccurrenceRefreshSubscriber).
 */
const FEED_FIRST_PAGE = '/v1/events/upcoming?limit=20';
const FEED_DEPTH = 24;

async function deepFeedPath(context: PlanContext): Promise<string> {
  const walk = await walkCursors<{ id: string }>(async (cursor) => {
    const response = await fetch(
      `${context.appUrl}${FEED_FIRST_PAGE}${cursor === null ? '' : `&after=${encodeURIComponent(cursor)}`}`,
    );
    if (!response.ok)
      throw new Error(`walking the upcoming events: ${response.status} ${await response.text()}`);
    return (await response.json()) as PageEnvelope<{ id: string }>;
  }, FEED_DEPTH);
  context.log(`upcoming events deep page: page ${FEED_DEPTH + 1}, after ${walk.items} occurrences`);
  return `${FEED_FIRST_PAGE}&after=${encodeURIComponent(walk.cursor)}`;
}

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
  {
    name: 'upcoming events feed first page (limit 20)',
    group: 'read',
    request: () => ({ method: 'GET', path: FEED_FIRST_PAGE }),
    against: { kind: 'twin', handler: 'upcoming events' },
    target: { ratio: 0.6 },
  },
  {
    name: `upcoming events deep page by cursor (page ${FEED_DEPTH + 1}, limit 20)`,
    group: 'read',
    request: async (context) => ({ method: 'GET', path: await deepFeedPath(context) }),
    against: { kind: 'twin', handler: 'upcoming events' },
    relativeTo: 'upcoming events feed first page (limit 20)',
    target: { ratio: 0.6, relative: 0.9 },
  },
];
