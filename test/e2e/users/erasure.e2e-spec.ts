import { Actor } from '../../support/actors';
import { admit, makePublic, newSpace, person } from '../memberships/support';
import { newPost, newTopic } from '../posts/support';
import { bootSpaces, expectInvalid, expectNotFound, expectStatus, SpacesTestApp } from '../spaces/support';

const DAY_MS = 86_400_000;

/**
 * Erasure on request (issue 35 item 2; docs/decisions/0195-erasure-scheduled-by-the-users-module.md):
 * DELETE /profile schedules it after the grace period, the account is deactivated meanwhile,
 * POST /profile/restore cancels.
 */
describe('erasure on request (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let alice: Actor;
  let spaceId: string;

  beforeAll(async () => {
    t = await bootSpaces();
    [owner, alice] = await Promise.all([person(t), person(t)]);
    expectStatus(await owner.signUp('erase-owner', 'Owner'), 201);
    expectStatus(await alice.signUp('erase-alice', 'Alice'), 201);
    expectStatus(await alice.patch('/profile', { isPublic: true, bio: 'Makes things' }), 200);
    spaceId = (await newSpace(owner, 'Erasure')).id;
    await makePublic(owner, spaceId);
    await admit(owner, spaceId, alice);
  });

  afterAll(() => t?.close());

  const dueAt = async (did: string) =>
    ((await t.dataSource.query('SELECT erasure_due_at FROM users WHERE did = $1', [did])) as {
      erasure_due_at: Date | null;
    }[])[0]?.erasure_due_at ?? null;

  it('refuses a confirmation that is not the caller’s handle, and stores nothing', async () => {
    for (const body of [{ confirmHandle: 'erase-owner' }, { confirmHandle: '' }, {}, { confirmHandle: 7 }]) {
      const answer = await alice.send('DELETE', '/profile', body);
      expectInvalid(answer);
    }
    expect(await dueAt(alice.did)).toBeNull();
    expectStatus(await t.anonymous.get('/v1/users/erase-alice'), 200);
  });

  it('schedules the erasure after the grace period; the account is deactivated meanwhile; restore cancels', async () => {
    const answer = await alice.send('DELETE', '/profile', { confirmHandle: 'Erase-Alice' });
    expectStatus(answer, 202);
    const scheduled = new Date(answer.body.erasureScheduledAt as string);
    expect(scheduled.getTime() - t.clock.now().getTime()).toBeGreaterThan(30 * DAY_MS - 60_000);
    expect(scheduled.getTime() - t.clock.now().getTime()).toBeLessThanOrEqual(30 * DAY_MS);
    expect((await dueAt(alice.did))?.toISOString()).toBe(scheduled.toISOString());

    expectNotFound(await t.anonymous.get('/v1/users/erase-alice'));
    expectNotFound(await t.anonymous.get(`/v1/users/${alice.did}`));
    expect((await t.anonymous.get('/v1/users')).text).not.toContain(alice.did);
    expect((await owner.get(`/spaces/${spaceId}/members`)).text).not.toContain(alice.did);

    expectStatus(await alice.post('/profile/restore', {}), 204);
    expect(await dueAt(alice.did)).toBeNull();
    expectStatus(await t.anonymous.get('/v1/users/erase-alice'), 200);
    expect((await owner.get(`/spaces/${spaceId}/members`)).text).toContain(alice.did);
    // Nothing left to cancel.
    expectStatus(await alice.post('/profile/restore', {}), 409);
  });
});
