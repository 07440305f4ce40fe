import { parseEntityId } from '../../../src/common/ids/entity-id';
import { SpaceDirectoryService } from '../../../src/spaces/services/space-directory.service';
import { bootSpaces, Caller, configuredSpace, createSpace, expectStatus, SpacesTestApp } from './support';

describe('SpaceDirectoryService: the lookups other modules build on (e2e)', () => {
  let t: SpacesTestApp;
  let directory: SpaceDirectoryService;
  let owner: Caller;

  beforeAll(async () => {
    t = await bootSpaces();
    directory = t.app.get(SpaceDirectoryService);
    owner = t.caller();
  });

  afterAll(async () => {
    await t.close();
  });

  it('finds a public space by subdomain, entity id and DID; private, deleted and unknown are null', async () => {
    const id = await configuredSpace(owner, true, 'open');
    expectStatus(await owner.put(`/spaces/${id}/domain`, { domain: 'findme' }), 200);
    const { did } = (await owner.get(`/spaces/${id}`)).body;
    for (const reference of ['findme', id, did]) {
      const found = await directory.findPublicByReference(reference);
      expect(found?.id).toBe(parseEntityId('space', id));
    }
    // The normalized form names the id, so it keeps resolving after a claim.
    const normalized = await directory.findPublicByReference(`space-${id.slice('space_'.length)}`);
    expect(normalized?.id).toBe(parseEntityId('space', id));
    for (const reference of ['nothing-here', `space_${'0'.repeat(32)}`, 'did:plat:nope', '', 'FINDME']) {
      expect(await directory.findPublicByReference(reference)).toBeNull();
    }

    const hidden = await createSpace(owner);
    expect(await directory.findPublicByReference(hidden.id)).toBeNull();
    expect((await directory.findByReference(hidden.id))?.did).toBe(hidden.did);
    expect((await directory.findByReference(`space-${hidden.id.slice('space_'.length)}`))?.did).toBe(
      hidden.did,
    );

    expectStatus(await owner.delete(`/spaces/${id}`), 204);
    for (const reference of ['findme', id, did, `space-${id.slice('space_'.length)}`]) {
      expect(await directory.findPublicByReference(reference)).toBeNull();
      expect(await directory.findByReference(reference)).toBeNull();
    }
  });

  it('answers memberships, active membership and admin standing', async () => {
    const id = await configuredSpace(owner, true, 'open');
    const spaceId = parseEntityId('space', id)!;
    const member = t.caller();
    const leaver = t.caller();
    const kicked = t.caller();
    const banned = t.caller();
    for (const person of [member, leaver, kicked, banned]) {
      expectStatus(await person.post(`/spaces/${id}/join`), 200);
    }
    expectStatus(await leaver.delete(`/spaces/${id}/membership`), 204);
    expectStatus(await owner.delete(`/spaces/${id}/members/${kicked.did}`), 204);
    expectStatus(await owner.post(`/spaces/${id}/members/${banned.did}/bans`), 200);

    expect(await directory.membershipOf(spaceId, owner.did!)).toMatchObject({
      role: 'owner',
      status: 'active',
    });
    // One row per space and person, kept through leaving, kicks and bans, with the state it is in.
    expect(await directory.membershipOf(spaceId, leaver.did!)).toMatchObject({ status: 'left' });
    expect(await directory.membershipOf(spaceId, kicked.did!)).toMatchObject({ status: 'removed' });
    expect(await directory.membershipOf(spaceId, banned.did!)).toMatchObject({ status: 'banned' });
    expect(await directory.isActiveMember(spaceId, kicked.did!)).toBe(false);
    expect(await directory.isActiveMember(spaceId, banned.did!)).toBe(false);
    expect(await directory.membershipOf(spaceId, t.caller().did!)).toBeNull();
    expect(await directory.isActiveMember(spaceId, member.did!)).toBe(true);
    expect(await directory.isActiveMember(spaceId, leaver.did!)).toBe(false);
    expect(await directory.roleOf(spaceId, member.did!)).toBe('member');
    expect(await directory.isAdmin(spaceId, owner.did!)).toBe(true);
    expect(await directory.isAdmin(spaceId, member.did!)).toBe(false);
  });

  it('moves lastActivityAt forward only, and words the member count', async () => {
    const { id } = await createSpace(owner);
    const spaceId = parseEntityId('space', id)!;
    const created = (await directory.findById(spaceId))!;
    const later = new Date(created.lastActivityAt!.getTime() + 60_000);
    await directory.recordActivity(spaceId, later, t.dataSource.manager);
    expect((await directory.findById(spaceId))!.lastActivityAt).toEqual(later);
    await directory.recordActivity(spaceId, created.lastActivityAt!, t.dataSource.manager);
    expect((await directory.findById(spaceId))!.lastActivityAt).toEqual(later);
    expect(directory.memberCountSummary(created)).toBe('a handful of members');
  });

  it('finds a live topic of a space by wire id, whatever its access; deleted and foreign ones are null', async () => {
    const id = await configuredSpace(owner, true, 'open');
    const other = await configuredSpace(owner, true, 'open');
    const spaceId = parseEntityId('space', id)!;
    const create = async (spaceWireId: string, name: string, access: unknown) =>
      (await owner.post(`/spaces/${spaceWireId}/topics`, { name, access })).body.id as string;
    const members = await create(id, 'Members', 'members');
    const group = (await owner.post(`/spaces/${id}/groups`, { name: 'Crew' })).body.id as string;
    const groups = await create(id, 'Groups', { groups: [group] });
    const foreign = await create(other, 'Foreign', 'public');
    expect(await directory.findTopic(spaceId, members)).toMatchObject({
      name: 'Members',
      accessKind: 'members',
    });
    expect(await directory.findTopic(spaceId, groups)).toMatchObject({
      accessKind: 'groups',
      accessGroupIds: [parseEntityId('group', group)],
    });
    expectStatus(await owner.delete(`/spaces/${id}/topics/${members}`), 204);
    for (const topicId of [members, foreign, 'topic_1', `topic_${'0'.repeat(32)}`, groups.toUpperCase()]) {
      expect(await directory.findTopic(spaceId, topicId)).toBeNull();
    }
  });
});
