import {
  bootSpaces,
  Caller,
  createSpace,
  expectInvalid,
  expectNotFound,
  expectStatus,
  publicSpace,
  SpacesTestApp,
  walk,
} from '../spaces/support';
import { createEvent, items, OccurrenceItem, query, setNow, timedEvent } from './support';
import { legacyImage, UNKNOWN_MEDIA } from '../../support/media-uploads';

const NOW = '2027-01-10T00:00:00Z';

describe('event reads: listings, windows, paging, one event, the upcoming feed (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Caller;

  beforeAll(async () => {
    t = await bootSpaces();
    owner = t.caller();
    await setNow(t, NOW);
  });

  afterAll(async () => {
    await t.close();
  });

  const listing = (spaceId: string, params: Record<string, string | number> = {}) =>
    t.anonymous.get(`/v1/spaces/${spaceId}/events?${query(params)}`);
  const starts = (list: OccurrenceItem[]) => list.map((item) => `${item.recurrenceId} ${item.startsAt}`);

  it('lists a weekly 18:00 Europe/Berlin event at 18:00 local across both changes, records exactly as api-spec.md', async () => {
    const spaceId = await publicSpace(owner);
    const eventId = await createEvent(
      owner,
      spaceId,
      timedEvent({ startsAt: '2027-03-18T17:00:00Z', endsAt: '2027-03-18T19:00:00Z', rrule: 'FREQ=WEEKLY' }),
    );
    const spring = items(
      await listing(spaceId, { from: '2027-03-18T00:00:00Z', to: '2027-04-02T00:00:00Z' }),
    );
    expect(starts(spring)).toEqual([
      '2027-03-18T18:00:00 2027-03-18T17:00:00.000Z',
      '2027-03-25T18:00:00 2027-03-25T17:00:00.000Z',
      '2027-04-01T18:00:00 2027-04-01T16:00:00.000Z',
    ]);
    const autumn = items(
      await listing(spaceId, { from: '2027-10-25T00:00:00Z', to: '2027-11-05T00:00:00Z' }),
    );
    expect(starts(autumn)).toEqual([
      '2027-10-28T18:00:00 2027-10-28T16:00:00.000Z',
      '2027-11-04T18:00:00 2027-11-04T17:00:00.000Z',
    ]);
    const space = (await t.anonymous.get(`/v1/spaces/${spaceId}`)).body as Record<string, unknown>;
    expect(spring[2]).toEqual({
      id: eventId,
      seriesId: eventId,
      recurrenceId: '2027-04-01T18:00:00',
      space: {
        id: spaceId,
        did: space.did,
        domain: space.domain,
        displayName: space.displayName,
        avatarUrl: null,
      },
      title: 'Open workshop',
      description: null,
      location: null,
      type: 'attend',
      mode: 'place',
      url: null,
      interestCount: 0,
      requiresTicket: false,
      tickets: [],
      cover: null,
      isAllDay: false,
      startsAt: '2027-04-01T16:00:00.000Z',
      endsAt: '2027-04-01T18:00:00.000Z',
      localStart: '2027-04-01T18:00:00',
      timeZone: 'Europe/Berlin',
      startDate: null,
      endDate: null,
    });
  });

  it('shows all-day occurrences in the all-day shape, update events without mode or ticket requirement', async () => {
    const spaceId = await publicSpace(owner);
    await createEvent(owner, spaceId, {
      title: 'Fair',
      type: 'update',
      mode: 'chat',
      requiresTicket: true,
      isAllDay: true,
      startDate: '2027-07-10',
      endDate: '2027-07-13',
      rrule: 'FREQ=WEEKLY;COUNT=2',
      visibility: 'public',
    });
    const list = items(await listing(spaceId, { from: '2027-07-12T00:00:00Z', to: '2027-07-20T00:00:00Z' }));
    expect(list.map((item) => [item.recurrenceId, item.startDate, item.endDate])).toEqual([
      ['2027-07-10', '2027-07-10', '2027-07-13'],
      ['2027-07-17', '2027-07-17', '2027-07-20'],
    ]);
    expect(list[0]).toMatchObject({
      isAllDay: true,
      startsAt: null,
      endsAt: null,
      localStart: null,
      timeZone: null,
      mode: null,
      requiresTicket: false,
    });
  });

  it('selects by overlap at both edges; open-ended from its start; point-in-time ends at its start', async () => {
    const spaceId = await publicSpace(owner);
    await createEvent(
      owner,
      spaceId,
      timedEvent({ startsAt: '2027-02-01T10:00:00Z', endsAt: '2027-02-01T12:00:00Z' }),
    );
    const count = async (from: string, to: string) => items(await listing(spaceId, { from, to })).length;
    expect(await count('2027-02-01T11:59:59Z', '2027-02-02T00:00:00Z')).toBe(1);
    expect(await count('2027-02-01T12:00:00Z', '2027-02-02T00:00:00Z')).toBe(0);
    expect(await count('2027-01-31T00:00:00Z', '2027-02-01T10:00:00Z')).toBe(0);
    expect(await count('2027-01-31T00:00:00Z', '2027-02-01T10:00:01Z')).toBe(1);
    const open = await publicSpace(owner);
    await createEvent(owner, open, timedEvent({ startsAt: '2027-02-01T10:00:00Z' }));
    expect(items(await listing(open, { from: '2027-02-01T10:00:00Z', to: '2027-02-02' }))).toHaveLength(1);
    expect(items(await listing(open, { from: '2027-02-01T10:00:01Z', to: '2027-02-02' }))).toHaveLength(0);
    const point = await publicSpace(owner);
    await createEvent(
      owner,
      point,
      timedEvent({ startsAt: '2027-02-01T10:00:00Z', endsAt: '2027-02-01T10:00:00Z' }),
    );
    const [item] = items(await listing(point, { from: '2027-02-01T09:00:00Z', to: '2027-02-02' }));
    expect(item.endsAt).toBe(item.startsAt);
  });

  it('defaults the window to [now, now + 90 days), clamps a longer or reversed one to 366 days, refuses malformed bounds', async () => {
    const spaceId = await publicSpace(owner);
    for (const startsAt of ['2027-01-20T10:00:00Z', '2027-04-20T10:00:00Z', '2028-01-11T10:00:00Z']) {
      await createEvent(owner, spaceId, timedEvent({ startsAt, title: startsAt }));
    }
    const titles = async (params: Record<string, string>) =>
      items(await listing(spaceId, params)).map((i) => i.title);
    expect(await titles({})).toEqual(['2027-01-20T10:00:00Z']);
    expect(await titles({ to: '2027-05-01T00:00:00Z' })).toEqual([
      '2027-01-20T10:00:00Z',
      '2027-04-20T10:00:00Z',
    ]);
    expect(await titles({ from: '2027-01-10', to: '2026-01-01' })).toEqual([
      '2027-01-20T10:00:00Z',
      '2027-04-20T10:00:00Z',
    ]);
    expect(await titles({ from: '2027-01-10', to: '2029-01-01' })).toEqual([
      '2027-01-20T10:00:00Z',
      '2027-04-20T10:00:00Z',
    ]);
    expect(await titles({ from: '2027-01-12', to: '2029-01-01' })).toEqual([
      '2027-01-20T10:00:00Z',
      '2027-04-20T10:00:00Z',
      '2028-01-11T10:00:00Z',
    ]);
    expectInvalid(await listing(spaceId, { from: 'not-a-date' }), 'from');
    expectInvalid(await listing(spaceId, { to: '2027-02-30T00:00:00Z' }), 'to');
    expectInvalid(await listing(spaceId, { from: '2027-01-10T00:00:00' }), 'from');
    expectInvalid(await listing(spaceId, { limit: 0 }), 'limit');
    expectInvalid(await listing(spaceId, { after: 'forged' }), 'after');
    const response = await listing(spaceId);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).not.toHaveProperty('totalCount');
  });

  it('pages with keyset cursors both ways, and a walk stops at the window’s first 500 occurrences', async () => {
    const spaceId = await publicSpace(owner);
    for (const startsAt of ['2027-01-11T08:00:00Z', '2027-01-11T08:00:00Z', '2027-01-11T20:00:00Z']) {
      await createEvent(owner, spaceId, timedEvent({ startsAt, timeZone: 'UTC', rrule: 'FREQ=DAILY' }));
    }
    const small = await walk<OccurrenceItem>(
      t.anonymous,
      `/v1/spaces/${spaceId}/events?to=2027-01-21T00:00:00Z`,
      7,
    );
    expect(small.forward).toHaveLength(30);
    expect(small.backward).toEqual(small.forward);
    const keys = small.forward.map((item) => [item.startsAt, item.id, item.recurrenceId].join(' '));
    expect([...keys].sort()).toEqual(keys);
    const capped = await walk<OccurrenceItem>(
      t.anonymous,
      `/v1/spaces/${spaceId}/events?${query({ from: '2027-01-10T00:00:00Z', to: '2027-12-31T00:00:00Z' })}`,
      100,
    );
    expect(capped.forward).toHaveLength(500);
    expect(capped.pages).toBe(5);
    expect(new Set(capped.forward.map((item) => `${item.id} ${item.recurrenceId}`)).size).toBe(500);
    const upcomingCursor = (await t.anonymous.get('/v1/events/upcoming?limit=1')).body.nextCursor as
      string | null;
    if (upcomingCursor) expectInvalid(await listing(spaceId, { after: upcomingCursor }), 'after');
  });

  it('answers an occ or a window near year 9000–9999 of a daily event from its own days (bounded expansion)', async () => {
    const spaceId = await publicSpace(owner);
    const eventId = await createEvent(
      owner,
      spaceId,
      timedEvent({ startsAt: '2027-01-05T17:00:00Z', rrule: 'FREQ=DAILY' }),
    );
    const one = (occ: string) => t.anonymous.get(`/v1/spaces/${spaceId}/events/${eventId}?occ=${occ}`);
    const far = await one('9999-12-30T18:00:00');
    expectStatus(far, 200);
    expect((far.body as OccurrenceItem).recurrenceId).toBe('9999-12-30T18:00:00');
    // Not an occurrence (19:00): the soonest one instead.
    expect(((await one('9999-12-30T19:00:00')).body as OccurrenceItem).recurrenceId).toBe(
      '2027-01-10T18:00:00',
    );
    const window = { from: '8999-01-01', to: '8999-01-03' };
    expect(items(await listing(spaceId, window)).map((item) => item.recurrenceId)).toEqual([
      '8999-01-01T18:00:00',
      '8999-01-02T18:00:00',
    ]);
    const feed = await t.anonymous.get(`/v1/events/upcoming?${query({ from: '8999-01-01', limit: 100 })}`);
    expectStatus(feed, 200);
    for (const item of items(feed)) expect(item.startsAt?.slice(0, 5)).toBe('8999-');
  });

  it('answers windows beyond the materialized horizon exactly, paging the same way', async () => {
    const spaceId = await publicSpace(owner);
    await createEvent(
      owner,
      spaceId,
      timedEvent({
        startsAt: '2027-01-12T09:00:00Z',
        timeZone: 'America/New_York',
        rrule: 'FREQ=WEEKLY;BYDAY=TU',
      }),
    );
    const far = { from: '2029-03-01T00:00:00Z', to: '2029-03-21T00:00:00Z' };
    expect(starts(items(await listing(spaceId, far)))).toEqual([
      '2029-03-06T04:00:00 2029-03-06T09:00:00.000Z',
      '2029-03-13T04:00:00 2029-03-13T08:00:00.000Z',
      '2029-03-20T04:00:00 2029-03-20T08:00:00.000Z',
    ]);
    const walked = await walk<OccurrenceItem>(t.anonymous, `/v1/spaces/${spaceId}/events?${query(far)}`, 2);
    expect(walked.forward.map((item) => item.recurrenceId)).toEqual([
      '2029-03-06T04:00:00',
      '2029-03-13T04:00:00',
      '2029-03-20T04:00:00',
    ]);
    expect(walked.backward).toEqual(walked.forward);
    const past = items(await listing(spaceId, { from: '2026-06-01T00:00:00Z', to: '2027-01-20T00:00:00Z' }));
    expect(past.map((item) => item.recurrenceId)).toEqual(['2027-01-12T04:00:00', '2027-01-19T04:00:00']);
  });

  it('moves a 02:30 America/New_York occurrence forward by the spring gap; a Pacific/Auckland one shows in a UTC window', async () => {
    const spaceId = await publicSpace(owner);
    const eventId = await createEvent(
      owner,
      spaceId,
      timedEvent({
        startsAt: '2027-03-13T07:30:00Z',
        timeZone: 'America/New_York',
        rrule: 'FREQ=DAILY;COUNT=3',
      }),
    );
    const spring = items(await listing(spaceId, { from: '2027-03-13', to: '2027-03-16' }));
    // design.md §12: recurrenceId and localStart are the local start, 03:30 EDT once moved.
    expect(starts(spring)).toEqual([
      '2027-03-13T02:30:00 2027-03-13T07:30:00.000Z',
      '2027-03-14T03:30:00 2027-03-14T07:30:00.000Z',
      '2027-03-15T02:30:00 2027-03-15T06:30:00.000Z',
    ]);
    expect(spring.map((item) => item.localStart)).toEqual(spring.map((item) => item.recurrenceId));
    // The moved occurrence is named by its local start everywhere: one event, and overrides.
    const moved = await t.anonymous.get(`/v1/spaces/${spaceId}/events/${eventId}?occ=2027-03-14T03:30:00`);
    expectStatus(moved, 200);
    expect((moved.body as OccurrenceItem).startsAt).toBe('2027-03-14T07:30:00.000Z');
    expectStatus(
      await owner.put(`/spaces/${spaceId}/events/${eventId}/occurrences/2027-03-14T03:30:00`, {
        canceled: true,
      }),
      200,
    );
    expect(starts(items(await listing(spaceId, { from: '2027-03-13', to: '2027-03-16' })))).toEqual([
      '2027-03-13T02:30:00 2027-03-13T07:30:00.000Z',
      '2027-03-15T02:30:00 2027-03-15T06:30:00.000Z',
    ]);
    const auckland = await publicSpace(owner);
    await createEvent(
      owner,
      auckland,
      timedEvent({
        startsAt: '2027-01-10T20:00:00Z',
        timeZone: 'Pacific/Auckland',
        rrule: 'FREQ=WEEKLY;BYDAY=MO',
      }),
    );
    expect(
      starts(items(await listing(auckland, { from: '2027-01-17T00:00:00Z', to: '2027-01-18T00:00:00Z' }))),
    ).toEqual(['2027-01-18T09:00:00 2027-01-17T20:00:00.000Z']);
  });

  it("shows each occurrence's own cover else the event's, as public images; the space avatar on the block", async () => {
    const spaceId = await publicSpace(owner);
    const [eventCover, ownCover, avatar] = await Promise.all([
      legacyImage(t, owner, 'event.png'),
      legacyImage(t, owner, 'own.png'),
      legacyImage(t, owner, 'avatar.png'),
    ]);
    expectStatus(await owner.put(`/spaces/${spaceId}`, { avatarId: avatar }), 200);
    const created = await owner.post(
      `/spaces/${spaceId}/events`,
      timedEvent({ rrule: 'FREQ=WEEKLY;COUNT=3', coverId: eventCover }),
    );
    expectStatus(created, 201);
    expect(created.body.cover).toMatchObject({
      id: eventCover,
      url: `http://api.plat.test/cdn/${eventCover}/event.png`,
    });
    const eventId = created.body.id as string;
    const override = await owner.put(`/spaces/${spaceId}/events/${eventId}/occurrences/2027-01-21T18:00:00`, {
      coverId: ownCover,
    });
    expectStatus(override, 200);
    expect(override.body.cover).toMatchObject({ id: ownCover });

    const listed = items(await listing(spaceId));
    expect(listed.map((item) => [item.recurrenceId, (item.cover as { id: string }).id])).toEqual([
      ['2027-01-14T18:00:00', eventCover],
      ['2027-01-21T18:00:00', ownCover],
      ['2027-01-28T18:00:00', eventCover],
    ]);
    expect(listed[1].cover).toEqual({
      id: ownCover,
      filename: 'own.png',
      url: `http://api.plat.test/cdn/${ownCover}/own.png`,
      contentType: 'image/png',
      contentLength: expect.any(Number),
      width: 40,
      height: 30,
      blurHash: expect.any(String),
    });
    expect((listed[0].space as { avatarUrl: string }).avatarUrl).toBe(
      `http://api.plat.test/cdn/${avatar}/avatar.png`,
    );
    const feed = items(
      await t.anonymous.get(
        `/v1/events/upcoming?${query({ from: '2027-01-21T16:00:00Z', to: '2027-01-21T18:00:00Z', limit: 100 })}`,
      ),
    ).filter((item) => item.id === eventId);
    expect(feed.map((item) => [(item.cover as { id: string }).id, item.space.avatarUrl])).toEqual([
      [ownCover, `http://api.plat.test/cdn/${avatar}/avatar.png`],
    ]);
    const one = await t.anonymous.get(`/v1/spaces/${spaceId}/events/${eventId}?occ=2027-01-21T18:00:00`);
    expectStatus(one, 200);
    expect(one.body.cover).toMatchObject({ id: ownCover });
    expect(one.body.cover).not.toHaveProperty('urlExpiresAt');

    // null clears the occurrence's own cover (the event's shows again); a foreign id is a 400.
    const path = `/spaces/${spaceId}/events/${eventId}/occurrences/2027-01-21T18:00:00`;
    expect((await owner.put(path, { coverId: null })).body.cover).toBeNull();
    expect(items(await listing(spaceId)).map((item) => (item.cover as { id: string }).id)).toEqual([
      eventCover,
      eventCover,
      eventCover,
    ]);
    expectInvalid(await owner.put(path, { coverId: UNKNOWN_MEDIA }), 'coverId');
    const theirs = await legacyImage(t, t.caller(), 'theirs.png');
    expectInvalid(await owner.post(`/spaces/${spaceId}/events`, timedEvent({ coverId: theirs })), 'coverId');
  });

  it('returns the occurrence occ names when live, else the soonest upcoming one; none is 404', async () => {
    const spaceId = await publicSpace(owner);
    const eventId = await createEvent(
      owner,
      spaceId,
      timedEvent({ startsAt: '2027-01-05T17:00:00Z', rrule: 'FREQ=WEEKLY' }),
    );
    const other = await createEvent(
      owner,
      spaceId,
      timedEvent({ startsAt: '2027-01-13T17:00:00Z', rrule: 'FREQ=WEEKLY' }),
    );
    const one = async (occ?: string) => {
      const response = await t.anonymous.get(
        `/v1/spaces/${spaceId}/events/${eventId}${occ === undefined ? '' : `?occ=${encodeURIComponent(occ)}`}`,
      );
      expectStatus(response, 200);
      expect(response.headers['cache-control']).toBe('no-store');
      return (response.body as OccurrenceItem).recurrenceId;
    };
    const soonest = '2027-01-12T18:00:00';
    const [, listed] = items(await listing(spaceId, { from: NOW, to: '2027-02-28T00:00:00Z' })).filter(
      (i) => i.id === eventId,
    );
    expect(await one(listed.recurrenceId)).toBe(listed.recurrenceId);
    for (const occ of [
      undefined,
      '',
      'garbage',
      '2027-01-05T18:00:00',
      '2027-01-13T18:00:00',
      '2027-01-19T18:00:00\u0007',
      '2027-01-19',
    ]) {
      expect(await one(occ)).toBe(soonest);
    }
    expect(
      await t.anonymous.get(`/v1/spaces/${spaceId}/events/${eventId}?occ=a&occ=b`).then((r) => r.status),
    ).toBe(200);
    await owner.put(`/spaces/${spaceId}/events/${eventId}/occurrences/${soonest}`, { canceled: true });
    expect(await one(soonest)).toBe('2027-01-19T18:00:00');
    expect(
      items(await listing(spaceId, { from: NOW, to: '2027-01-20' })).map((i) => i.recurrenceId),
    ).not.toContain(soonest);
    // The rule changes to Thursdays: a Tuesday occ falls back.
    expectStatus(
      await owner.put(
        `/spaces/${spaceId}/events/${eventId}`,
        timedEvent({ startsAt: '2027-01-07T17:00:00Z', rrule: 'FREQ=WEEKLY' }),
      ),
      200,
    );
    expect(await one('2027-01-19T18:00:00')).toBe('2027-01-14T18:00:00');
    const passed = await createEvent(owner, spaceId, timedEvent({ startsAt: '2027-01-01T17:00:00Z' }));
    expectNotFound(await t.anonymous.get(`/v1/spaces/${spaceId}/events/${passed}`));
    const farAway = await createEvent(owner, spaceId, timedEvent({ startsAt: '2028-02-01T17:00:00Z' }));
    expectNotFound(await t.anonymous.get(`/v1/spaces/${spaceId}/events/${farAway}`));
    expectNotFound(await t.anonymous.get(`/v1/spaces/${spaceId}/events/evt_${'0'.repeat(32)}`));
    expectNotFound(await t.anonymous.get(`/v1/spaces/${spaceId}/events/not-an-id`));
    const elsewhere = await publicSpace(owner);
    expectNotFound(await t.anonymous.get(`/v1/spaces/${elsewhere}/events/${other}`));
  });

  it('hides events that stop being public, are deleted, or whose space loses its public profile', async () => {
    const spaceId = await publicSpace(owner);
    const eventId = await createEvent(
      owner,
      spaceId,
      timedEvent({ startsAt: '2027-01-20T17:00:00Z', title: 'Vis' }),
    );
    const listed = async () => items(await listing(spaceId)).map((item) => item.id);
    const upcoming = async () =>
      items(
        await t.anonymous.get(
          `/v1/events/upcoming?${query({ from: '2027-01-20T16:00:00Z', to: '2027-01-20T18:00:00Z', limit: 100 })}`,
        ),
      ).map((item) => item.id);
    expect(await listed()).toEqual([eventId]);
    expect(await upcoming()).toContain(eventId);
    for (const visibility of ['members', 'draft']) {
      expectStatus(
        await owner.put(
          `/spaces/${spaceId}/events/${eventId}`,
          timedEvent({ startsAt: '2027-01-20T17:00:00Z', visibility }),
        ),
        200,
      );
      expect(await listed()).toEqual([]);
      expect(await upcoming()).not.toContain(eventId);
      expectNotFound(await t.anonymous.get(`/v1/spaces/${spaceId}/events/${eventId}`));
    }
    expectStatus(
      await owner.put(
        `/spaces/${spaceId}/events/${eventId}`,
        timedEvent({ startsAt: '2027-01-20T17:00:00Z' }),
      ),
      200,
    );
    expect(await listed()).toEqual([eventId]);
    expectStatus(
      await owner.put(`/spaces/${spaceId}/public-config`, { isPublic: false, joinMode: 'closed' }),
      200,
    );
    expectNotFound(await listing(spaceId));
    expectNotFound(await t.anonymous.get(`/v1/spaces/${spaceId}/events/${eventId}`));
    expect(await upcoming()).not.toContain(eventId);
    expectStatus(
      await owner.put(`/spaces/${spaceId}/public-config`, { isPublic: true, joinMode: 'open' }),
      200,
    );
    expect(await upcoming()).toContain(eventId);
    expectStatus(await owner.delete(`/spaces/${spaceId}/events/${eventId}`), 204);
    expect(await listed()).toEqual([]);
    expect(await upcoming()).not.toContain(eventId);
    expectNotFound(await t.anonymous.get(`/v1/spaces/${spaceId}/events/${eventId}`));
  });

  it('feeds upcoming occurrences across publicly discoverable spaces only, earliest first, never 404', async () => {
    const first = await publicSpace(owner);
    const second = await publicSpace(owner, 'application');
    const hidden = (await createSpace(owner)).id;
    const window = { from: '2027-06-01T00:00:00Z', to: '2027-06-02T00:00:00Z', limit: 100 };
    const late = await createEvent(
      owner,
      first,
      timedEvent({ startsAt: '2027-06-01T15:00:00Z', timeZone: 'UTC' }),
    );
    const early = await createEvent(
      owner,
      second,
      timedEvent({ startsAt: '2027-06-01T09:00:00Z', timeZone: 'UTC' }),
    );
    await createEvent(owner, hidden, timedEvent({ startsAt: '2027-06-01T12:00:00Z', timeZone: 'UTC' }));
    const feed = items(await t.anonymous.get(`/v1/events/upcoming?${query(window)}`));
    const mine = feed.filter((item) => [first, second, hidden].includes(item.space.id));
    expect(mine.map((item) => [item.id, item.space.id])).toEqual([
      [early, second],
      [late, first],
    ]);
    expectStatus(await t.anonymous.get('/v1/events/upcoming'), 200);
    expectInvalid(await t.anonymous.get('/v1/events/upcoming?from=yesterday'), 'from');
    const later = items(
      await t.anonymous.get(
        `/v1/events/upcoming?${query({ ...window, from: '2031-06-01', to: '2031-06-02' })}`,
      ),
    );
    expect(later.filter((item) => [first, second, hidden].includes(item.space.id))).toEqual([]);
  });

  it('keeps a cancellation while its occurrence still occurs after a rule change, drops it when not', async () => {
    const spaceId = await publicSpace(owner);
    const body = (rrule: string) => timedEvent({ startsAt: '2027-01-11T10:00:00Z', timeZone: 'UTC', rrule });
    const eventId = await createEvent(owner, spaceId, body('FREQ=DAILY'));
    const ids = async () =>
      items(await listing(spaceId, { from: '2027-01-11', to: '2027-01-16' })).map((item) =>
        item.recurrenceId.slice(0, 10),
      );
    expectStatus(
      await owner.put(`/spaces/${spaceId}/events/${eventId}/occurrences/2027-01-13T10:00:00`, {
        canceled: true,
      }),
      200,
    );
    expect(await ids()).toEqual(['2027-01-11', '2027-01-12', '2027-01-14', '2027-01-15']);
    expectStatus(await owner.put(`/spaces/${spaceId}/events/${eventId}`, body('FREQ=DAILY;INTERVAL=2')), 200);
    expect(await ids()).toEqual(['2027-01-11', '2027-01-15']);
    expectStatus(
      await owner.put(`/spaces/${spaceId}/events/${eventId}`, body('FREQ=WEEKLY;BYDAY=MO,TU,WE')),
      200,
    );
    expect(await ids()).toEqual(['2027-01-11', '2027-01-12']);
    expectStatus(await owner.put(`/spaces/${spaceId}/events/${eventId}`, body('FREQ=DAILY')), 200);
    expect(await ids()).toEqual(['2027-01-11', '2027-01-12', '2027-01-14', '2027-01-15']);
    expectStatus(await owner.put(`/spaces/${spaceId}/events/${eventId}`, body('FREQ=WEEKLY;BYDAY=TU')), 200);
    expectStatus(await owner.put(`/spaces/${spaceId}/events/${eventId}`, body('FREQ=DAILY')), 200);
    expect(await ids()).toEqual(['2027-01-11', '2027-01-12', '2027-01-13', '2027-01-14', '2027-01-15']);
  });

  it('survives refreshes run at once (several replicas): no duplicate, no error, same listing', async () => {
    const spaceId = await publicSpace(owner);
    await createEvent(
      owner,
      spaceId,
      timedEvent({ startsAt: '2027-01-11T10:00:00Z', timeZone: 'UTC', rrule: 'FREQ=DAILY' }),
    );
    const before = items(await listing(spaceId, { limit: 100 }));
    await Promise.all([setNow(t, NOW), setNow(t, NOW), setNow(t, NOW)]);
    expect(items(await listing(spaceId, { limit: 100 }))).toEqual(before);
  });

  it('rewrites only the updated event’s materialized occurrences, and the refresh extends the horizon', async () => {
    const spaceId = await publicSpace(owner);
    const a = await createEvent(
      owner,
      spaceId,
      timedEvent({ startsAt: '2027-01-11T10:00:00Z', timeZone: 'UTC', rrule: 'FREQ=WEEKLY' }),
    );
    const b = await createEvent(
      owner,
      spaceId,
      timedEvent({ startsAt: '2027-01-12T10:00:00Z', timeZone: 'UTC', rrule: 'FREQ=WEEKLY' }),
    );
    const rows = async (eventId: string) =>
      (
        await t.dataSource.query(
          'SELECT recurrence_id FROM event_occurrences WHERE event_id = $1 ORDER BY 1',
          [eventId.slice(4).replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-')],
        )
      ).map((row: { recurrence_id: string }) => row.recurrence_id);
    const before = await rows(b);
    expect(before.length).toBeGreaterThan(60);
    await owner.put(
      `/spaces/${spaceId}/events/${a}`,
      timedEvent({ startsAt: '2027-01-11T10:00:00Z', timeZone: 'UTC', rrule: 'FREQ=WEEKLY;COUNT=2' }),
    );
    expect(await rows(a)).toEqual(['2027-01-11T10:00:00', '2027-01-18T10:00:00']);
    expect(await rows(b)).toEqual(before);
    await setNow(t, '2027-03-10T00:00:00Z');
    const moved = await rows(b);
    expect(moved[0] > before[0]).toBe(true);
    expect(moved[moved.length - 1] > before[before.length - 1]).toBe(true);
    await setNow(t, NOW);
  });
});
