import { Response } from 'supertest';
import {
  addMember,
  bootSpaces,
  Caller,
  createSpace,
  expectInvalid,
  expectNotFound,
  expectStatus,
  publicSpace,
  SpacesTestApp,
} from '../spaces/support';
import { createEvent, setNow, timedEvent } from './support';

describe('event administration (design.md §9, §12) (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Caller;
  let spaceId: string;

  beforeAll(async () => {
    t = await bootSpaces();
    owner = t.caller();
    await setNow(t, '2027-01-10T00:00:00Z');
    spaceId = await publicSpace(owner);
  });

  afterAll(async () => {
    await t.close();
  });

  const post = (body: Record<string, unknown>) => owner.post(`/spaces/${spaceId}/events`, body);

  it('creates a timed event and answers the written record', async () => {
    const response = await post(
      timedEvent({
        startsAt: '2027-01-14T17:00:00.400Z',
        endsAt: '2027-01-14T19:00:00Z',
        rrule: 'FREQ=WEEKLY',
      }),
    );
    expectStatus(response, 201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      spaceId,
      title: 'Open workshop',
      description: null,
      location: null,
      type: 'attend',
      mode: 'place',
      url: null,
      isAllDay: false,
      startsAt: '2027-01-14T17:00:00.000Z',
      endsAt: '2027-01-14T19:00:00.000Z',
      timeZone: 'Europe/Berlin',
      startDate: null,
      endDate: null,
      rrule: 'FREQ=WEEKLY',
      cover: null,
      requiresTicket: false,
      ticketProductIds: [],
      visibility: 'public',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('creates an all-day event', async () => {
    const response = await post({
      title: 'Festival',
      type: 'attend',
      isAllDay: true,
      startDate: '2027-07-10',
      endDate: '2027-07-13',
      visibility: 'members',
    });
    expectStatus(response, 201);
    expect(response.body).toMatchObject({
      isAllDay: true,
      startDate: '2027-07-10',
      endDate: '2027-07-13',
      startsAt: null,
    });
  });

  it('lets only admins write: members 403, strangers 403 (public) or 404 (private), anonymous 401', async () => {
    const member = t.caller();
    await addMember(owner, spaceId, member);
    const stranger = t.caller();
    expectStatus(await member.post(`/spaces/${spaceId}/events`, timedEvent()), 403);
    expectStatus(await stranger.post(`/spaces/${spaceId}/events`, timedEvent()), 403);
    expectStatus(await t.anonymous.post(`/spaces/${spaceId}/events`, timedEvent()), 401);
    const hidden = (await createSpace(owner)).id;
    expectNotFound(await stranger.post(`/spaces/${hidden}/events`, timedEvent()));
    expectStatus(await owner.post(`/spaces/${hidden}/events`, timedEvent()), 201);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['an unknown type', { type: 'party' }, 'type'],
    ['an unknown mode', { mode: 'telepathy' }, 'mode'],
    ['no visibility', { visibility: undefined }, 'visibility'],
    ['an all-day field on a timed event', { startDate: '2027-01-14' }, 'startDate'],
    ['no startsAt on a timed event', { startsAt: undefined }, 'startsAt'],
    ['a startsAt without a zone', { startsAt: '2027-01-14T17:00:00' }, 'startsAt'],
    ['endsAt before startsAt', { endsAt: '2027-01-14T16:59:59Z' }, 'endsAt'],
    ['no timeZone', { timeZone: undefined }, 'timeZone'],
    ['an unknown zone', { timeZone: 'Europe/Atlantis' }, 'timeZone'],
    ['a sub-daily rule', { rrule: 'FREQ=SECONDLY' }, 'rrule'],
    ['a part outside §12', { rrule: 'FREQ=DAILY;BYHOUR=9' }, 'rrule'],
    ['an rrule of 10,000 characters', { rrule: `FREQ=DAILY;${'INTERVAL=1;'.repeat(909)}` }, 'rrule'],
    ['UNTIL before the start', { rrule: 'FREQ=DAILY;UNTIL=20260101T000000Z' }, 'rrule'],
    ['an empty rrule', { rrule: '' }, 'rrule'],
    ['a content line instead of an RRULE value', { rrule: 'RRULE:FREQ=DAILY' }, 'rrule'],
    ['a BYSETPOS no month reaches (a sixth Monday)', { rrule: 'FREQ=MONTHLY;BYDAY=MO;BYSETPOS=6' }, 'rrule'],
    ['a first Monday on the 15th', { rrule: 'FREQ=MONTHLY;BYDAY=1MO;BYMONTHDAY=15' }, 'rrule'],
    ['Mondays every seventh day from a Thursday', { rrule: 'FREQ=DAILY;INTERVAL=7;BYDAY=MO' }, 'rrule'],
    ['a cover naming no upload of the caller', { coverId: `media_${'a'.repeat(32)}` }, 'coverId'],
    [
      'a ticket product the space does not have',
      { ticketProductIds: [`product_${'b'.repeat(32)}`] },
      'ticketProductIds.0',
    ],
    ['a malformed ticket product id', { ticketProductIds: ['ticket-1'] }, 'ticketProductIds'],
    ['an unknown member', { color: 'red' }, 'color'],
  ])('refuses %s with 400 and details', async (_name, change, path) => {
    expectInvalid(await post(timedEvent(change)), path);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a timed field on an all-day event', { startsAt: '2027-01-14T17:00:00Z' }, 'startsAt'],
    ['a zone on an all-day event', { timeZone: 'Europe/Berlin' }, 'timeZone'],
    ['endDate equal to startDate', { endDate: '2027-07-10' }, 'endDate'],
    ['endDate before startDate', { endDate: '2027-07-09' }, 'endDate'],
    ['a date that does not exist', { startDate: '2027-02-30' }, 'startDate'],
    ['no startDate', { startDate: undefined }, 'startDate'],
  ])('refuses %s on an all-day event', async (_name, change, path) => {
    const body = {
      title: 'Fair',
      type: 'attend',
      isAllDay: true,
      startDate: '2027-07-10',
      visibility: 'public',
      ...change,
    };
    expectInvalid(await post(body), path);
  });

  it('replaces an event on PUT and deletes it; other spaces’ and unknown events are 404', async () => {
    const eventId = await createEvent(owner, spaceId, timedEvent({ rrule: 'FREQ=DAILY;COUNT=5' }));
    const replaced = await owner.put(
      `/spaces/${spaceId}/events/${eventId}`,
      timedEvent({ title: 'Renamed', type: 'update' }),
    );
    expectStatus(replaced, 200);
    expect(replaced.body).toMatchObject({
      id: eventId,
      title: 'Renamed',
      type: 'update',
      rrule: null,
      mode: 'place',
    });
    expectInvalid(
      await owner.put(`/spaces/${spaceId}/events/${eventId}`, timedEvent({ timeZone: 'Nowhere/Land' })),
      'timeZone',
    );
    const other = await publicSpace(owner);
    expectNotFound(await owner.put(`/spaces/${other}/events/${eventId}`, timedEvent()));
    expectNotFound(await owner.delete(`/spaces/${other}/events/${eventId}`));
    expectNotFound(await owner.delete(`/spaces/${spaceId}/events/evt_nope`));
    expectStatus(await owner.delete(`/spaces/${spaceId}/events/${eventId}`), 204);
    expectNotFound(await owner.delete(`/spaces/${spaceId}/events/${eventId}`));
  });

  it('overrides one occurrence: cancel, uncancel; unknown recurrenceIds 404, covers 400', async () => {
    const eventId = await createEvent(owner, spaceId, timedEvent({ rrule: 'FREQ=WEEKLY;COUNT=4' }));
    const path = (recurrenceId: string) => `/spaces/${spaceId}/events/${eventId}/occurrences/${recurrenceId}`;
    const canceled: Response = await owner.put(path('2027-01-21T18:00:00'), { canceled: true });
    expectStatus(canceled, 200);
    expect(canceled.body).toEqual({
      eventId,
      recurrenceId: '2027-01-21T18:00:00',
      cover: null,
      canceled: true,
    });
    expect((await owner.put(path('2027-01-21T18:00:00'), { canceled: false })).body).toMatchObject({
      canceled: false,
    });
    expectNotFound(await owner.put(path('2027-01-22T18:00:00'), { canceled: true }));
    expectNotFound(await owner.put(path('2027-02-11T18:00:00'), { canceled: true }));
    expectNotFound(await owner.put(path('not-a-time'), { canceled: true }));
    expectInvalid(
      await owner.put(path('2027-01-21T18:00:00'), { coverId: `media_${'c'.repeat(32)}` }),
      'coverId',
    );
    const member = t.caller();
    await addMember(owner, spaceId, member);
    expectStatus(await member.put(path('2027-01-21T18:00:00'), { canceled: true }), 403);
  });

  it('words eventCountSummary: public and members events, a series once; drafts not', async () => {
    const fresh = await publicSpace(owner);
    const summary = async () =>
      (await t.anonymous.get(`/v1/spaces/${fresh}`)).body.eventCountSummary as string;
    expect(await summary()).toBe('no events');
    await createEvent(owner, fresh, timedEvent({ visibility: 'draft' }));
    expect(await summary()).toBe('no events');
    await createEvent(owner, fresh, timedEvent({ rrule: 'FREQ=DAILY' }));
    await createEvent(owner, fresh, timedEvent({ visibility: 'members' }));
    expect(await summary()).toBe('a handful of events');
    const counted = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM events WHERE space_id = $1 AND visibility <> 'draft'`,
      [fresh.slice('space_'.length)],
    );
    expect(counted[0].n).toBe(2);
  });
});
