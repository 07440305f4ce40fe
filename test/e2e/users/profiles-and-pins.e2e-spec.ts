import { refuseWrites } from '../../support/faults';
import {
  addMember,
  bootSpaces,
  Caller,
  count,
  createSpace,
  expectInvalid,
  expectNotFound,
  expectStatus,
  publicSpace,
  SpacesTestApp,
  walk,
} from '../spaces/support';

interface SpaceItem {
  id: string;
  did: string;
  domain: string;
  displayName: string | null;
  avatarUrl: string | null;
  memberCountSummary: string;
  pinned: boolean;
  pinMessage?: string | null;
  pinnedAt: string | null;
}

interface DirectoryRow {
  id: string;
  handle: string;
  pinnedSpaces: { did: string; domain: string; displayName: string | null; avatarUrl: string | null }[];
}

const ITEM_KEYS = [
  'avatarUrl',
  'did',
  'displayName',
  'domain',
  'id',
  'memberCountSummary',
  'pinned',
  'pinnedAt',
].sort();

/** Signs up and makes the profile public (or not). */
async function account(caller: Caller, handle: string, isPublic: boolean): Promise<string> {
  const created = await caller.post('/users', { handle, displayName: handle.toUpperCase() });
  expectStatus(created, 201);
  if (isPublic) expectStatus(await caller.patch('/profile', { isPublic: true }), 200);
  return created.body.id as string;
}

describe('user profiles, public spaces and pins (e2e)', () => {
  let t: SpacesTestApp;
  let alice: Caller;
  let bob: Caller;
  let carol: Caller;
  let aliceId: string;
  let carolId: string;
  /** Alice's public spaces, oldest first (so most recently joined last). */
  const spaces: string[] = [];
  let privateSpace: string;
  let bobSpace: string;
  let bobPrivate: string;

  beforeAll(async () => {
    t = await bootSpaces();
    alice = t.caller();
    bob = t.caller();
    carol = t.caller();
    aliceId = await account(alice, 'alice', true);
    await account(bob, 'bob', true);
    carolId = await account(carol, 'carol', false);
    for (let index = 0; index < 24; index++) spaces.push(await publicSpace(alice, 'open'));
    privateSpace = (await createSpace(alice, 'Secret')).id;
    bobSpace = await publicSpace(bob, 'closed');
    bobPrivate = (await createSpace(bob, 'Bob private')).id;
  }, 120_000);

  afterAll(async () => {
    await t.close();
  });

  const pinCount = async () => count(t.dataSource, 'user_space_pins');

  describe('PUT /spaces/{id}/pin and DELETE /spaces/{id}/pin', () => {
    it('pins with a message, answers the user public space item, and is idempotent', async () => {
      const first = await alice.put(`/spaces/${spaces[0]}/pin`, { pinMessage: '  where it began  ' });
      expectStatus(first, 200);
      const item = first.body as SpaceItem;
      expect(Object.keys(item).sort()).toEqual([...ITEM_KEYS, 'pinMessage'].sort());
      expect(item).toMatchObject({
        id: spaces[0],
        pinned: true,
        pinMessage: 'where it began',
        avatarUrl: null,
      });
      expect(item.memberCountSummary).toEqual(expect.any(String));
      expect(new Date(item.pinnedAt!).toISOString()).toBe(item.pinnedAt);

      const again = await alice.put(`/spaces/${spaces[0]}/pin`, {});
      expectStatus(again, 200);
      expect(again.body).toEqual(item); // message and pinnedAt kept when omitted
      expect(await pinCount()).toBe(1);

      const cleared = await alice.put(`/spaces/${spaces[0]}/pin`, { pinMessage: null });
      expect(cleared.body).toMatchObject({ pinned: true, pinMessage: null, pinnedAt: item.pinnedAt });
    });

    it('unpins idempotently and answers the item without pinMessage', async () => {
      expectStatus(await alice.put(`/spaces/${spaces[1]}/pin`), 200);
      for (let round = 0; round < 2; round++) {
        const response = await alice.delete(`/spaces/${spaces[1]}/pin`);
        expectStatus(response, 200);
        expect(Object.keys(response.body).sort()).toEqual(ITEM_KEYS);
        expect(response.body).toMatchObject({ id: spaces[1], pinned: false, pinnedAt: null });
      }
      expect(await pinCount()).toBe(1);
    });

    it('a non-member gets 403 on a public space and the constant 404 on a private one', async () => {
      const put = await alice.put(`/spaces/${bobSpace}/pin`, {});
      expectStatus(put, 403);
      expectStatus(await alice.delete(`/spaces/${bobSpace}/pin`), 403);
      expectNotFound(await alice.put(`/spaces/${bobPrivate}/pin`, {}));
      expectNotFound(await alice.delete(`/spaces/${bobPrivate}/pin`));
      expect(await pinCount()).toBe(1);
    });

    it.each([
      'space_nope',
      'space_0190f1a2b3c4d5e6f708192a3b4c5d6e',
      'post_0190f1a2b3c4d5e6f708192a3b4c5d6e',
    ])('answers %s with the constant 404', async (id) => {
      expectNotFound(await alice.put(`/spaces/${id}/pin`, {}));
      expectNotFound(await alice.delete(`/spaces/${id}/pin`));
    });

    it.each([
      [{ pinMessage: 'x'.repeat(281) }, 'pinMessage'],
      [{ pinMessage: 42 }, 'pinMessage'],
      [{ pinMessage: 'hi', extra: true }, 'extra'],
      [{ pinMessage: 'a\u0000b' }, 'pinMessage'],
    ])('answers %j with 400 and stores nothing', async (body, path) => {
      expectInvalid(await alice.put(`/spaces/${spaces[2]}/pin`, body), path);
      expect(await pinCount()).toBe(1);
    });

    it('needs a request proof (401) and an account (404)', async () => {
      expectStatus(await t.anonymous.put(`/spaces/${spaces[0]}/pin`, {}), 401);
      expectNotFound(await t.caller().put(`/spaces/${spaces[0]}/pin`, {}));
    });
  });

  describe('PUT /profile/pins', () => {
    it('replaces the order, keeps kept pins’ message and time, drops the rest', async () => {
      const before = (await alice.put(`/spaces/${spaces[0]}/pin`, { pinMessage: 'kept' })).body as SpaceItem;
      const order = [spaces[5], spaces[0], privateSpace, spaces[3]];
      const response = await alice.put('/profile/pins', { spaceIds: order });
      expectStatus(response, 200);
      const pinned = response.body.pinned as SpaceItem[];
      expect(pinned.map((item) => item.id)).toEqual(order);
      expect(pinned.every((item) => item.pinned)).toBe(true);
      expect(pinned[1]).toMatchObject({ pinMessage: 'kept', pinnedAt: before.pinnedAt });
      expect(pinned[0].pinMessage).toBeNull();

      const reordered = await alice.put('/profile/pins', { spaceIds: [spaces[3], spaces[0]] });
      expect((reordered.body.pinned as SpaceItem[]).map((item) => item.id)).toEqual([spaces[3], spaces[0]]);
      expect(await pinCount()).toBe(2);
      expectStatus(await alice.put('/profile/pins', { spaceIds: [] }), 200);
      expect(await pinCount()).toBe(0);
    });

    it('a replacement that fails mid-write keeps the old pins (one transaction)', async () => {
      expectStatus(await alice.put('/profile/pins', { spaceIds: [spaces[7], spaces[2]] }), 200);
      // The old pins are deleted first; the insert of the new ones then fails.
      const repair = await refuseWrites(t.dataSource, 'user_space_pins', 'INSERT');
      try {
        expectStatus(await alice.put('/profile/pins', { spaceIds: [spaces[3]] }), 500);
      } finally {
        await repair();
      }
      const listed = (await t.anonymous.get('/v1/users/alice/spaces')).body.items as SpaceItem[];
      expect(listed.filter((item) => item.pinned).map((item) => item.id)).toEqual([spaces[7], spaces[2]]);
    });

    it.each([
      [{}, 'spaceIds'],
      [{ spaceIds: 'space_0190f1a2b3c4d5e6f708192a3b4c5d6e' }, 'spaceIds'],
      [{ spaceIds: ['nope'] }, 'spaceIds'],
      [{ spaceIds: [42] }, 'spaceIds'],
      [{ spaceIds: Array.from({ length: 21 }, () => 'x') }, 'spaceIds'],
    ])('answers %j with 400 and stores nothing', async (body, path) => {
      expectStatus(await alice.put('/profile/pins', { spaceIds: [spaces[7]] }), 200);
      expectInvalid(await alice.put('/profile/pins', body), path);
      const listed = (await t.anonymous.get('/v1/users/alice/spaces')).body.items as SpaceItem[];
      expect(listed.filter((item) => item.pinned).map((item) => item.id)).toEqual([spaces[7]]);
    });

    it('refuses spaces the caller is not in, repeats, and unknown ids (400 with details), storing nothing', async () => {
      expectStatus(await alice.put('/profile/pins', { spaceIds: [spaces[7]] }), 200);
      for (const spaceIds of [
        [spaces[1], bobSpace],
        [bobPrivate],
        ['space_0190f1a2b3c4d5e6f708192a3b4c5d6e'],
        [spaces[1], spaces[1]],
      ]) {
        const response = await alice.put('/profile/pins', { spaceIds });
        expectInvalid(response);
        if (spaceIds[1] === bobSpace) expect(response.body.details[0].path).toBe('spaceIds.1');
      }
      expect(await pinCount()).toBe(1);
    });
  });

  describe('the pin limit', () => {
    it('takes at most 20 pins: a 21st through PUT /spaces/{id}/pin is 409, nothing stored', async () => {
      expectStatus(await alice.put('/profile/pins', { spaceIds: spaces.slice(0, 20) }), 200);
      const response = await alice.put(`/spaces/${spaces[21]}/pin`, {});
      expectStatus(response, 409);
      expect(response.body).toEqual({ code: 'E_CONFLICT', message: 'At most 20 pinned spaces' });
      expectStatus(await alice.put(`/spaces/${spaces[19]}/pin`, { pinMessage: 'still editable' }), 200);
      expect(await pinCount()).toBe(20);
      expectStatus(await alice.put('/profile/pins', { spaceIds: [] }), 200);
    });
  });

  describe('public reads', () => {
    beforeAll(async () => {
      expectStatus(
        await alice.put('/profile/pins', { spaceIds: [spaces[3], privateSpace, spaces[0], spaces[10]] }),
        200,
      );
    });

    it('GET /v1/users/{user} embeds every pinned public space, then 20 more by join recency', async () => {
      const response = await t.anonymous.get('/v1/users/ALICE');
      expectStatus(response, 200);
      expect(response.body.protocol).toBeDefined();
      const items = response.body.spaces as SpaceItem[];
      const pinned = [spaces[3], spaces[0], spaces[10]];
      const rest = [...spaces]
        .reverse()
        .filter((id) => !pinned.includes(id))
        .slice(0, 20);
      expect(items.map((item) => item.id)).toEqual([...pinned, ...rest]);
      expect(items.slice(0, 3).every((item) => item.pinned && item.pinMessage !== undefined)).toBe(true);
      expect(
        items.slice(3).every((item) => !item.pinned && !('pinMessage' in item) && item.pinnedAt === null),
      ).toBe(true);
      expect(items.map((item) => item.id)).not.toContain(privateSpace);
      for (const item of items) expect(Object.keys(item)).not.toEqual(expect.arrayContaining(['role']));
      expect(JSON.stringify(items)).not.toMatch(/joinedAt|role|memberCount"/);
    });

    it('resolves the user by DID and identity id too', async () => {
      for (const reference of [alice.did!, aliceId]) {
        const response = await t.anonymous.get(`/v1/users/${reference}`);
        expectStatus(response, 200);
        expect(response.body.handle).toBe('alice');
      }
    });

    it('GET /v1/users/{user}/spaces walks pinned first in order, then by join recency, both ways', async () => {
      const pinned = [spaces[3], spaces[0], spaces[10]];
      const expected = [...pinned, ...[...spaces].reverse().filter((id) => !pinned.includes(id))];
      const { forward, backward, pages } = await walk<SpaceItem>(t.anonymous, '/v1/users/alice/spaces', 5);
      expect(forward.map((item) => item.id)).toEqual(expected);
      expect(backward.map((item) => item.id)).toEqual(expected);
      expect(pages).toBe(5);
      expect(forward.filter((item) => item.pinned).map((item) => item.id)).toEqual(pinned);
      const oneByOne = await walk<SpaceItem>(t.anonymous, '/v1/users/alice/spaces', 2);
      expect(oneByOne.forward.map((item) => item.id)).toEqual(expected);
    });

    it('refuses a cursor of another listing and a bad limit (400)', async () => {
      const users = await t.anonymous.get('/v1/users?limit=1');
      expectStatus(
        await t.anonymous.get(`/v1/users/alice/spaces?after=${encodeURIComponent(users.body.nextCursor)}`),
        400,
      );
      expectInvalid(await t.anonymous.get('/v1/users/alice/spaces?limit=0'), 'limit');
      expectInvalid(await t.anonymous.get('/v1/users?limit=101'), 'limit');
    });

    it('GET /v1/users lists public profiles only, in account order, with pinned public spaces', async () => {
      const dave = t.caller();
      await account(dave, 'dave', true);
      expectStatus(await bob.put(`/spaces/${bobPrivate}/pin`, {}), 200);
      expectStatus(await bob.put(`/spaces/${bobSpace}/pin`, {}), 200);
      const { forward, backward } = await walk<DirectoryRow>(t.anonymous, '/v1/users', 1);
      expect(forward.map((row) => row.handle)).toEqual(['alice', 'bob', 'dave']);
      expect(backward.map((row) => row.handle)).toEqual(['alice', 'bob', 'dave']);
      const rows = new Map(forward.map((row) => [row.handle, row]));
      const spaceDid = async (id: string) => ((await alice.get(`/spaces/${id}`)).body as { did: string }).did;
      expect(rows.get('alice')!.pinnedSpaces.map((space) => space.did)).toEqual([
        await spaceDid(spaces[3]),
        await spaceDid(spaces[0]),
        await spaceDid(spaces[10]),
      ]);
      expect(Object.keys(rows.get('alice')!.pinnedSpaces[0]).sort()).toEqual([
        'avatarUrl',
        'did',
        'displayName',
        'domain',
      ]);
      expect(rows.get('bob')!.pinnedSpaces).toHaveLength(1); // the private one never shows
      expect(rows.get('dave')!.pinnedSpaces).toEqual([]);
      expect(forward[0]).not.toHaveProperty('protocol');
      expect(JSON.stringify(forward)).not.toContain('carol');
    });

    it('another user’s data: bob’s pins and spaces are his, not alice’s', async () => {
      const bobProfile = await t.anonymous.get('/v1/users/bob');
      expectStatus(bobProfile, 200);
      expect((bobProfile.body.spaces as SpaceItem[]).map((item) => item.id)).toEqual([bobSpace]);
      expect(bobProfile.body.spaces[0].pinned).toBe(true);
    });

    it('a space the user leaves disappears from every read; rejoining shows the pin again', async () => {
      const erin = t.caller();
      await account(erin, 'erin', true);
      await addMember(alice, spaces[20], erin);
      expectStatus(await erin.put(`/spaces/${spaces[20]}/pin`, { pinMessage: 'mine' }), 200);
      let profile = await t.anonymous.get('/v1/users/erin');
      expect((profile.body.spaces as SpaceItem[]).map((item) => item.id)).toEqual([spaces[20]]);

      expectStatus(await erin.delete(`/spaces/${spaces[20]}/membership`), 204);
      profile = await t.anonymous.get('/v1/users/erin');
      expect(profile.body.spaces).toEqual([]);
      expect((await t.anonymous.get('/v1/users/erin/spaces')).body.items).toEqual([]);
      const row = ((await t.anonymous.get('/v1/users?limit=100')).body.items as DirectoryRow[]).find(
        (item) => item.handle === 'erin',
      );
      expect(row!.pinnedSpaces).toEqual([]);
      expectStatus(await erin.put(`/spaces/${spaces[20]}/pin`, {}), 403);

      expectStatus(await erin.post(`/spaces/${spaces[20]}/join`, {}), 200);
      profile = await t.anonymous.get('/v1/users/erin');
      expect(profile.body.spaces).toEqual([
        expect.objectContaining({ id: spaces[20], pinned: true, pinMessage: 'mine' }),
      ]);
    });

    it('a space that goes private disappears from public reads', async () => {
      expectStatus(
        await alice.put(`/spaces/${spaces[3]}/public-config`, { isPublic: false, joinMode: 'closed' }),
        200,
      );
      const items = (await t.anonymous.get('/v1/users/alice')).body.spaces as SpaceItem[];
      expect(items.map((item) => item.id)).not.toContain(spaces[3]);
      expect(items[0].id).toBe(spaces[0]);
      expectStatus(
        await alice.put(`/spaces/${spaces[3]}/public-config`, { isPublic: true, joinMode: 'open' }),
        200,
      );
    });

    it.each([
      'carol',
      'CAROL',
      'nobody-here',
      'a',
      'identity_0190f1a2b3c4d5e6f708192a3b4c5d6e',
      'did:plat:2346789acdefhknrtvz2346789acdef',
      '%E2%9C%93',
    ])('a private or missing user %s is the constant 404 on every single-user route', async (reference) => {
      expectNotFound(await t.anonymous.get(`/v1/users/${reference}`));
      expectNotFound(await t.anonymous.get(`/v1/users/${reference}/spaces`));
    });

    it('a private user is 404 by DID and identity id as well', async () => {
      for (const reference of [carol.did!, carolId]) {
        expectNotFound(await t.anonymous.get(`/v1/users/${reference}`));
        expectNotFound(await t.anonymous.get(`/v1/users/${reference}/spaces`));
      }
    });
  });
});
