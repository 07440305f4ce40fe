import { Response } from 'supertest';
import { OccurrenceRefreshSubscriber as OccurrenceRefresh } from '../../../src/events/events/occurrence-refresh.subscriber';
import { Caller, expectStatus, SpacesTestApp } from '../spaces/support';

export interface OccurrenceItem {
  id: string;
  seriesId: string;
  recurrenceId: string;
  space: { id: string; did: string; domain: string; displayName: string | null; avatarUrl: string | null };
  title: string;
  startsAt: string | null;
  endsAt: string | null;
  localStart: string | null;
  startDate: string | null;
  endDate: string | null;
  [member: string]: unknown;
}

/** A public weekly-or-not timed event body; `overrides` replace or add members. */
export const timedEvent = (overrides: Record<string, unknown> = {}) => ({
  title: 'Open workshop',
  type: 'attend',
  mode: 'place',
  isAllDay: false,
  startsAt: '2027-01-14T17:00:00Z',
  timeZone: 'Europe/Berlin',
  visibility: 'public',
  ...overrides,
});

export async function createEvent(
  owner: Caller,
  spaceId: string,
  body: Record<string, unknown>,
): Promise<string> {
  const response = await owner.post(`/spaces/${spaceId}/events`, body);
  expectStatus(response, 201);
  return (response.body as { id: string }).id;
}

/** Sets the test clock to `at` (requests are signed by it too) and moves the horizon there. */
export async function setNow(t: SpacesTestApp, at: string): Promise<void> {
  t.clock.offsetMs = new Date(at).getTime() - Date.now();
  await t.app.get(OccurrenceRefresh).run();
}

export const items = (response: Response): OccurrenceItem[] => {
  expectStatus(response, 200);
  return (response.body as { items: OccurrenceItem[] }).items;
};

export const query = (params: Record<string, string | number>) =>
  Object.entries(params)
    .map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`)
    .join('&');
