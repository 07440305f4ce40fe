import { Actor } from '../../support/actors';
import { count, expectInvalid, expectNotFound, newDid } from '../spaces/support';
import {
  addToGroup,
  admit,
  bootSpaces,
  expectStatus,
  makePublic,
  newGroup,
  newSpace,
  person,
  promote,
  SpacesTestApp,
} from './support';

const DID = /^did:plat:[2346789acdefhknrtvz]{31}$/;
const GROUP_ID = /^group_[0-9a-f]{32}$/;

describe('groups administration (design.md §9)', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let admin: Actor;
  let member: Actor;
  let stranger: Actor;
  let spaceId: string;

  beforeAll(async () => {
    t = await bootSpaces();
    [owner, admin, member, stranger] = await Promise.all([person(t), person(t), person(t), person(t)]);
    spaceId = (await newSpace(owner)).id;
    await admit(owner, spaceId, admin);
    await promote(owner, spaceId, admin);
    await admit(owner, spaceId, member);
  });

  afterAll(() => t?.close());

  it('creates a group with its own DID (201) and answers the written record', async () => {
    const response = await admin.post(`/spaces/${spaceId}/groups`, {
      name: '  Crew  ',
      description: 'The ones who build',
      color: 'cyan',
    });
    expectStatus(response, 201);
    const group = response.body;
    expect(group).toEqual({
      id: expect.stringMatching(GROUP_ID),
      did: expect.stringMatching(DID),
      spaceId,
      name: 'Crew',
      description: 'The ones who build',
      color: 'cyan',
      memberCount: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    // The group's identity chain is on the relay, signed by the origin key.
    const identity = await t.anonymous.get(`/relay/proof/v1/identities/${group.did}`);
    expectStatus(identity, 200);
    const other = await newGroup(owner, spaceId, { name: 'Crew' });
    expect(other.did).not.toBe(group.did);
  });

  it('defaults description and color to null', async () => {
    const response = await owner.post(`/spaces/${spaceId}/groups`, { name: 'Plain' });
    expectStatus(response, 201);
    expect(response.body).toMatchObject({ description: null, color: null });
  });

  it('refuses bad bodies (400 with details) and stores nothing', async () => {
    const before = await count(t.dataSource, 'space_groups');
    expectInvalid(await admin.post(`/spaces/${spaceId}/groups`, { color: 'cyan' }), 'name');
    expectInvalid(await admin.post(`/spaces/${spaceId}/groups`, { name: '   ' }), 'name');
    expectInvalid(await admin.post(`/spaces/${spaceId}/groups`, { name: 'x'.repeat(101) }), 'name');
    expectInvalid(await admin.post(`/spaces/${spaceId}/groups`, { name: 'A', color: 'chartreuse' }), 'color');
    expectInvalid(await admin.post(`/spaces/${spaceId}/groups`, { name: 'A', color: '#00ffff' }), 'color');
    expectInvalid(
      await admin.post(`/spaces/${spaceId}/groups`, { name: 'A', description: 'x'.repeat(1001) }),
      'description',
    );
    expectInvalid(await admin.post(`/spaces/${spaceId}/groups`, { name: 'A', extra: 1 }), 'extra');
    expect(await count(t.dataSource, 'space_groups')).toBe(before);
  });

  it('changes a group (200): name replaced, description and color kept when omitted, null clears', async () => {
    const group = await newGroup(admin, spaceId, { name: 'Old', description: 'Kept', color: 'rose' });
    const renamed = await admin.put(`/spaces/${spaceId}/groups/${group.id}`, { name: 'New' });
    expectStatus(renamed, 200);
    expect(renamed.body).toMatchObject({
      id: group.id,
      did: group.did,
      name: 'New',
      description: 'Kept',
      color: 'rose',
    });
    const cleared = await admin.put(`/spaces/${spaceId}/groups/${group.id}`, {
      name: 'New',
      description: null,
      color: null,
    });
    expectStatus(cleared, 200);
    expect(cleared.body).toMatchObject({ description: null, color: null });
    expectInvalid(
      await admin.put(`/spaces/${spaceId}/groups/${group.id}`, { name: 'New', color: 'plaid' }),
      'color',
    );
  });

  it('adds active members (200, idempotent) and removes them (204)', async () => {
    const group = await newGroup(admin, spaceId);
    const added = await addToGroup(admin, spaceId, group.id, member);
    expect(added.body).toEqual({
      groupId: group.id,
      did: member.did,
      role: 'member',
      joinedAt: expect.any(String),
    });
    const again = await addToGroup(admin, spaceId, group.id, member);
    expect(again.body.joinedAt).toBe(added.body.joinedAt);
    await addToGroup(admin, spaceId, group.id, admin);
    const record = await admin.put(`/spaces/${spaceId}/groups/${group.id}`, { name: 'Crew' });
    expect(record.body.memberCount).toBe(2);

    expectStatus(await admin.delete(`/spaces/${spaceId}/groups/${group.id}/members/${member.did}`), 204);
    expectNotFound(await admin.delete(`/spaces/${spaceId}/groups/${group.id}/members/${member.did}`));
    const after = await admin.put(`/spaces/${spaceId}/groups/${group.id}`, { name: 'Crew' });
    expect(after.body.memberCount).toBe(1);
  });

  it('refuses to add someone who is not an active member of the space (404)', async () => {
    const group = await newGroup(admin, spaceId);
    expectNotFound(await admin.put(`/spaces/${spaceId}/groups/${group.id}/members/${stranger.did}`, {}));
    expectNotFound(await admin.put(`/spaces/${spaceId}/groups/${group.id}/members/${newDid()}`, {}));
    expectNotFound(await admin.put(`/spaces/${spaceId}/groups/${group.id}/members/not-a-did`, {}));
    const leaver = await person(t);
    await admit(owner, spaceId, leaver);
    expectStatus(await leaver.delete(`/spaces/${spaceId}/membership`), 204);
    expectNotFound(await admin.put(`/spaces/${spaceId}/groups/${group.id}/members/${leaver.did}`, {}));
  });

  it('deletes a group (204) with its memberships; afterwards it is 404', async () => {
    const group = await newGroup(admin, spaceId);
    await addToGroup(admin, spaceId, group.id, member);
    const uuid = group.id.slice('group_'.length);
    expectStatus(await admin.delete(`/spaces/${spaceId}/groups/${group.id}`), 204);
    const rows = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM group_memberships WHERE replace(group_id::text, '-', '') = $1`,
      [uuid],
    );
    expect(rows[0].n).toBe(0);
    expectNotFound(await admin.delete(`/spaces/${spaceId}/groups/${group.id}`));
    expectNotFound(await admin.put(`/spaces/${spaceId}/groups/${group.id}`, { name: 'Back' }));
    expectNotFound(await admin.put(`/spaces/${spaceId}/groups/${group.id}/members/${member.did}`, {}));
  });

  it('lists the groups of the space for admins (oldest first)', async () => {
    const response = await owner.get(`/spaces/${spaceId}/groups?limit=100`);
    expectStatus(response, 200);
    const ids = response.body.items.map((group: { id: string }) => group.id);
    expect(ids).toEqual([...ids].sort());
    expect(response.body.nextCursor).toBeNull();
  });

  it('refuses non-admins: 403 for a member or a non-member of a public space, 404 for a private one', async () => {
    const group = await newGroup(admin, spaceId);
    const attempts = (caller: Actor) => [
      caller.post(`/spaces/${spaceId}/groups`, { name: 'Mine' }),
      caller.put(`/spaces/${spaceId}/groups/${group.id}`, { name: 'Mine' }),
      caller.delete(`/spaces/${spaceId}/groups/${group.id}`),
      caller.put(`/spaces/${spaceId}/groups/${group.id}/members/${member.did}`, {}),
      caller.delete(`/spaces/${spaceId}/groups/${group.id}/members/${member.did}`),
      caller.get(`/spaces/${spaceId}/groups`),
    ];
    for (const response of await Promise.all(attempts(member))) expectStatus(response, 403);
    // Private space: a stranger sees nothing.
    for (const response of await Promise.all(attempts(stranger))) expectNotFound(response);

    const open = (await newSpace(owner, 'Open')).id;
    await makePublic(owner, open);
    const openGroup = await newGroup(owner, open);
    expectStatus(await stranger.post(`/spaces/${open}/groups`, { name: 'Mine' }), 403);
    expectStatus(await stranger.delete(`/spaces/${open}/groups/${openGroup.id}`), 403);
  });

  it('answers 404 for unknown, malformed and other-space group ids, and unknown spaces', async () => {
    const otherSpace = (await newSpace(owner, 'Other')).id;
    const foreign = await newGroup(owner, otherSpace);
    expectNotFound(await owner.put(`/spaces/${spaceId}/groups/${foreign.id}`, { name: 'X' }));
    expectNotFound(await owner.delete(`/spaces/${spaceId}/groups/group_0190f1a2b3c4d5e6f708192a3b4c5d6e`));
    expectNotFound(await owner.delete(`/spaces/${spaceId}/groups/topic_0190f1a2b3c4d5e6f708192a3b4c5d6e`));
    expectNotFound(await owner.delete(`/spaces/${spaceId}/groups/nonsense`));
    expectNotFound(await owner.post(`/spaces/space_0190f1a2b3c4d5e6f708192a3b4c5d6e/groups`, { name: 'X' }));
  });

  it('needs a proof (401) and refuses credentials on these routes (403)', async () => {
    expectStatus(await t.anonymous.post(`/spaces/${spaceId}/groups`, { name: 'X' }), 401);
    const app = await person(t);
    const credential = owner.grant(app, ['read:memberships']);
    expectStatus(await app.post(`/spaces/${spaceId}/groups`, { name: 'X' }, { credential }), 403);
  });
});
