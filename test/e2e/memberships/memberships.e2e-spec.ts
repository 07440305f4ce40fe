import request, { Response } from 'supertest';
import { issueCredential } from '../../../src/protocol/client';
import { Actor } from '../../support/actors';
import { expectNotFound, NOT_FOUND_TEXT } from '../spaces/support';
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

interface SpaceItem {
  space: { id: string; did: string; domain: string };
  role: string;
  groupCount: number;
  joinedAt: string;
}
interface GroupItem {
  group: { id: string; did: string; spaceId: string; memberCount: number };
  role: string;
  joinedAt: string;
}
interface Listing<T> {
  items: T[];
  nextCursor: string | null;
  previousCursor?: string | null;
  totalCount?: number;
}

describe('membership records (api-spec.md "Credential-gated reads")', () => {
  let t: SpacesTestApp;
  let alice: Actor;
  let bob: Actor;
  let app: Actor;
  let credential: string;
  const spaces: Record<string, { id: string; did: string }> = {};
  const groups: Record<string, { id: string; did: string }> = {};

  /** Moves the service clock a little so every join has its own joinedAt. */
  const tick = () => {
    t.clock.offsetMs += 5;
  };
  const read = (path: string) => app.get(path, { credential });

  async function walk<T>(
    path: string,
    limit: number,
  ): Promise<{ forward: T[]; backward: T[]; totals: Set<number> }> {
    const join = path.includes('?') ? '&' : '?';
    const forward: T[] = [];
    const totals = new Set<number>();
    let after: string | null = null;
    let lastPage: T[] = [];
    let previous: string | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const response = await read(
        `${path}${join}limit=${limit}${after ? `&after=${encodeURIComponent(after)}` : ''}`,
      );
      expectStatus(response, 200);
      const body = response.body as Listing<T>;
      expect(body.items.length).toBeLessThanOrEqual(limit);
      forward.push(...body.items);
      totals.add(body.totalCount!);
      lastPage = body.items;
      previous = body.previousCursor ?? null;
      after = body.nextCursor;
      if (!after) break;
    }
    const backward = [...lastPage];
    while (previous) {
      const response = await read(`${path}${join}limit=${limit}&before=${encodeURIComponent(previous)}`);
      expectStatus(response, 200);
      backward.unshift(...(response.body as Listing<T>).items);
      previous = (response.body as Listing<T>).previousCursor ?? null;
    }
    return { forward, backward, totals };
  }

  beforeAll(async () => {
    t = await bootSpaces();
    [alice, bob, app] = await Promise.all([person(t), person(t), person(t)]);
    credential = alice.grant(app, ['read:memberships']);

    // Listed: owner of a private space, member of a private one, admin of a public one, member of a public one.
    spaces.owned = await newSpace(alice, 'Owned');
    tick();
    spaces.privateMember = await newSpace(bob, 'Private');
    await admit(bob, spaces.privateMember.id, alice);
    tick();
    spaces.adminOf = await newSpace(bob, 'Admin');
    await makePublic(bob, spaces.adminOf.id);
    await admit(bob, spaces.adminOf.id, alice);
    await promote(bob, spaces.adminOf.id, alice);
    tick();
    spaces.publicMember = await newSpace(bob, 'Public');
    await makePublic(bob, spaces.publicMember.id);
    expectStatus(await alice.post(`/spaces/${spaces.publicMember.id}/join`, {}), 200);
    tick();

    // Not listed: left, removed, banned, deleted space, invited only.
    for (const name of ['left', 'removed', 'banned', 'deleted', 'invited']) {
      spaces[name] = await newSpace(bob, name);
    }
    for (const name of ['left', 'removed', 'banned', 'deleted']) await admit(bob, spaces[name].id, alice);

    // Groups: two in the admin space, one in the owned space, one each in spaces alice then loses.
    groups.owned = await newGroup(alice, spaces.owned.id, { name: 'Mine', color: 'teal' });
    await addToGroup(alice, spaces.owned.id, groups.owned.id, alice);
    tick();
    groups.adminA = await newGroup(bob, spaces.adminOf.id, {
      name: 'Alpha',
      description: 'First',
      color: 'cyan',
    });
    await addToGroup(bob, spaces.adminOf.id, groups.adminA.id, alice);
    await addToGroup(bob, spaces.adminOf.id, groups.adminA.id, bob);
    tick();
    groups.adminB = await newGroup(bob, spaces.adminOf.id, { name: 'Beta' });
    await addToGroup(bob, spaces.adminOf.id, groups.adminB.id, alice);
    tick();
    groups.bobOnly = await newGroup(bob, spaces.adminOf.id, { name: 'Bob only' });
    await addToGroup(bob, spaces.adminOf.id, groups.bobOnly.id, bob);
    for (const name of ['left', 'removed', 'banned', 'deleted']) {
      groups[name] = await newGroup(bob, spaces[name].id, { name });
      await addToGroup(bob, spaces[name].id, groups[name].id, alice);
    }

    expectStatus(await alice.delete(`/spaces/${spaces.left.id}/membership`), 204);
    expectStatus(await bob.delete(`/spaces/${spaces.removed.id}/members/${alice.did}`), 204);
    expectStatus(await bob.post(`/spaces/${spaces.banned.id}/members/${alice.did}/bans`, {}), 200);
    expectStatus(await bob.delete(`/spaces/${spaces.deleted.id}`), 204);
    expectStatus(await bob.post(`/spaces/${spaces.invited.id}/my-invite`, {}), 201);
    await t.dataSource.query(
      `INSERT INTO space_memberships (space_id, member_did, role, status, joined_at) VALUES ($1, $2, 'member', 'invited', NULL)`,
      [spaces.invited.id.slice('space_'.length), alice.did],
    );
  });

  afterAll(() => t?.close());

  describe('GET /v1/memberships', () => {
    it('lists active memberships, public and private, joinedAt ascending, with role and groupCount', async () => {
      const response = await read('/v1/memberships');
      expectStatus(response, 200);
      expect(response.headers['cache-control']).toBe('no-store');
      const body = response.body as Listing<SpaceItem>;
      expect(body.items.map((item) => [item.space.id, item.role, item.groupCount])).toEqual([
        [spaces.owned.id, 'owner', 1],
        [spaces.privateMember.id, 'member', 0],
        [spaces.adminOf.id, 'admin', 2],
        [spaces.publicMember.id, 'member', 0],
      ]);
      expect(body.totalCount).toBe(4);
      expect(body.nextCursor).toBeNull();
      const joined = body.items.map((item) => item.joinedAt);
      expect(joined).toEqual([...joined].sort());
      expect(body.items[2]).toEqual({
        space: {
          id: spaces.adminOf.id,
          did: spaces.adminOf.did,
          domain: `space-${spaces.adminOf.id.slice('space_'.length)}`,
          displayName: 'Admin',
          description: 'A place to make things',
          avatarUrl: null,
          links: [],
          memberCountSummary: 'a handful of members',
        },
        role: 'admin',
        groupCount: 2,
        joinedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
    });

    it('filters by role (repeatable, either-of) with totalCount of the filtered set', async () => {
      const members = (await read('/v1/memberships?role=member')).body as Listing<SpaceItem>;
      expect(members.items.map((item) => item.space.id)).toEqual([
        spaces.privateMember.id,
        spaces.publicMember.id,
      ]);
      expect(members.totalCount).toBe(2);
      const leaders = (await read('/v1/memberships?role=owner&role=admin')).body as Listing<SpaceItem>;
      expect(leaders.items.map((item) => item.space.id)).toEqual([spaces.owned.id, spaces.adminOf.id]);
      expect(leaders.totalCount).toBe(2);
    });

    it('walks cursors to the end and back, totalCount constant on every page', async () => {
      for (const limit of [1, 3]) {
        const all = await walk<SpaceItem>('/v1/memberships', limit);
        expect(all.forward.map((item) => item.space.id)).toEqual([
          spaces.owned.id,
          spaces.privateMember.id,
          spaces.adminOf.id,
          spaces.publicMember.id,
        ]);
        expect(all.backward).toEqual(all.forward);
        expect([...all.totals]).toEqual([4]);
      }
      const filtered = await walk<SpaceItem>('/v1/memberships?role=member&role=admin', 1);
      expect(filtered.forward.map((item) => item.space.id)).toEqual([
        spaces.privateMember.id,
        spaces.adminOf.id,
        spaces.publicMember.id,
      ]);
      expect([...filtered.totals]).toEqual([3]);
    });

    it('refuses a space parameter, unknown roles and other parameters (400)', async () => {
      for (const query of [`space=${spaces.owned.id}`, 'role=guest', 'role=', 'limit=0', 'sort=new']) {
        const response = await read(`/v1/memberships?${query}`);
        expectStatus(response, 400);
        expect(response.body.code).toBe('E_INVALID_REQUEST');
      }
    });

    it('shows each person only their own memberships', async () => {
      const own = await bob.get('/v1/memberships?limit=100');
      expectStatus(own, 200);
      const ids = (own.body as Listing<SpaceItem>).items.map((item) => item.space.id);
      expect(ids).not.toContain(spaces.owned.id);
      expect(ids).toContain(spaces.adminOf.id);
    });
  });

  describe('GET /v1/membership/{space}', () => {
    it('answers one membership by id, DID or subdomain', async () => {
      const byId = await read(`/v1/membership/${spaces.adminOf.id}`);
      expectStatus(byId, 200);
      expect(byId.body).toMatchObject({ space: { id: spaces.adminOf.id }, role: 'admin', groupCount: 2 });
      const list = (await read('/v1/memberships')).body as Listing<SpaceItem>;
      expect(byId.body).toEqual(list.items[2]);
      expect((await read(`/v1/membership/${spaces.adminOf.did}`)).body).toEqual(byId.body);
      const domain = `space-${spaces.privateMember.id.slice('space_'.length)}`;
      const byDomain = await read(`/v1/membership/${domain}`);
      expectStatus(byDomain, 200);
      expect(byDomain.body.role).toBe('member');
    });

    it('is the constant 404 for non-members and missing spaces alike', async () => {
      for (const name of ['left', 'removed', 'banned', 'deleted', 'invited']) {
        expectNotFound(await read(`/v1/membership/${spaces[name].id}`));
      }
      expectNotFound(await read('/v1/membership/space_0190f1a2b3c4d5e6f708192a3b4c5d6e'));
      expectNotFound(await read('/v1/membership/no-such-space'));
      expectNotFound(await read('/v1/membership/did:plat:2346789acdefhknrtvz2346789acdef'));
      expectNotFound(await read('/v1/membership/%20'));
    });
  });

  describe('GET /v1/group-memberships', () => {
    it('lists groups inside spaces the person is still in, joinedAt ascending', async () => {
      const response = await read('/v1/group-memberships');
      expectStatus(response, 200);
      const body = response.body as Listing<GroupItem>;
      expect(body.items.map((item) => [item.group.id, item.role])).toEqual([
        [groups.owned.id, 'owner'],
        [groups.adminA.id, 'admin'],
        [groups.adminB.id, 'admin'],
      ]);
      expect(body.totalCount).toBe(3);
      expect(body.nextCursor).toBeNull();
      expect(body.items[1]).toEqual({
        group: {
          id: groups.adminA.id,
          did: groups.adminA.did,
          name: 'Alpha',
          description: 'First',
          avatarUrl: null,
          color: 'cyan',
          memberCount: 2,
          spaceId: spaces.adminOf.id,
          spaceDid: spaces.adminOf.did,
        },
        role: 'admin',
        joinedAt: expect.stringMatching(/Z$/),
      });
    });

    it('filters by role and by space; an unjoined or unknown space gives an empty page', async () => {
      const owners = (await read('/v1/group-memberships?role=owner')).body as Listing<GroupItem>;
      expect(owners.items.map((item) => item.group.id)).toEqual([groups.owned.id]);
      expect(owners.totalCount).toBe(1);
      const admins = (await read('/v1/group-memberships?role=admin&role=member')).body as Listing<GroupItem>;
      expect(admins.items.map((item) => item.group.id)).toEqual([groups.adminA.id, groups.adminB.id]);
      const scoped = (await read(`/v1/group-memberships?space=${spaces.adminOf.did}`))
        .body as Listing<GroupItem>;
      expect(scoped.items.map((item) => item.group.id)).toEqual([groups.adminA.id, groups.adminB.id]);
      expect(scoped.totalCount).toBe(2);
      const scopedWalk = await walk<GroupItem>(`/v1/group-memberships?space=${spaces.adminOf.id}`, 1);
      expect(scopedWalk.forward.map((item) => item.group.id)).toEqual([groups.adminA.id, groups.adminB.id]);
      expect(scopedWalk.backward).toEqual(scopedWalk.forward);
      expect([...scopedWalk.totals]).toEqual([2]);

      const empty = [
        spaces.privateMember.id,
        spaces.left.id,
        spaces.banned.id,
        spaces.deleted.id,
        'space_0190f1a2b3c4d5e6f708192a3b4c5d6e',
        'nonexistent',
      ];
      for (const space of empty) {
        const response = await read(`/v1/group-memberships?space=${encodeURIComponent(space)}`);
        expectStatus(response, 200);
        expect(response.body).toMatchObject({ items: [], nextCursor: null });
      }
      expectStatus(await read('/v1/group-memberships?role=guest'), 400);
      expectStatus(await read('/v1/group-memberships?space=nonexistent&after=garbage'), 400);
      const cursor = (await read('/v1/group-memberships?limit=1')).body.nextCursor as string;
      const unknown = await read(
        `/v1/group-memberships?space=nonexistent&after=${encodeURIComponent(cursor)}`,
      );
      expectStatus(unknown, 200);
      expect(unknown.body).toEqual({ items: [], nextCursor: null, previousCursor: null, totalCount: 0 });
    });

    it('walks cursors to the end', async () => {
      const all = await walk<GroupItem>('/v1/group-memberships', 1);
      expect(all.forward.map((item) => item.group.id)).toEqual([
        groups.owned.id,
        groups.adminA.id,
        groups.adminB.id,
      ]);
      expect(all.backward).toEqual(all.forward);
      expect([...all.totals]).toEqual([3]);
    });

    it('counts only active members in memberCount', async () => {
      const carol = await person(t);
      await admit(bob, spaces.adminOf.id, carol);
      await addToGroup(bob, spaces.adminOf.id, groups.adminA.id, carol);
      const count = async () =>
        (await read(`/v1/group-membership/${groups.adminA.id}`)).body.group.memberCount;
      expect(await count()).toBe(3);
      expectStatus(await carol.delete(`/spaces/${spaces.adminOf.id}/membership`), 204);
      expect(await count()).toBe(2);
    });
  });

  describe('GET /v1/group-membership/{group}', () => {
    it('answers one group membership by id or DID', async () => {
      const byId = await read(`/v1/group-membership/${groups.adminB.id}`);
      expectStatus(byId, 200);
      expect(byId.body).toMatchObject({
        group: { id: groups.adminB.id, name: 'Beta', description: null, color: null, memberCount: 1 },
        role: 'admin',
      });
      expect((await read(`/v1/group-membership/${groups.adminB.did}`)).body).toEqual(byId.body);
    });

    it('is the constant 404 on a miss', async () => {
      for (const name of ['left', 'removed', 'banned', 'deleted', 'bobOnly']) {
        expectNotFound(await read(`/v1/group-membership/${groups[name].id}`));
        expectNotFound(await read(`/v1/group-membership/${groups[name].did}`));
      }
      expectNotFound(await read('/v1/group-membership/group_0190f1a2b3c4d5e6f708192a3b4c5d6e'));
      expectNotFound(await read(`/v1/group-membership/${spaces.adminOf.id}`));
      expectNotFound(await read('/v1/group-membership/nonsense'));
    });
  });

  describe('access (api-spec.md "Authentication" items 2, 11)', () => {
    const paths = () => [
      '/v1/memberships',
      `/v1/membership/${spaces.adminOf.id}`,
      `/v1/membership/${spaces.left.id}`,
      '/v1/group-memberships',
      `/v1/group-membership/${groups.adminA.id}`,
      `/v1/group-membership/${groups.left.id}`,
    ];

    it('needs Authorization (401)', async () => {
      for (const path of paths()) expectStatus(await request(t.http).get(path), 401);
    });

    it('refuses a credential without read:memberships, also on the single checks (403, not 404)', async () => {
      const profileOnly = alice.grant(app, ['read:profile', 'read:email']);
      const postsOnly = alice.grant(app, ['read:posts']);
      for (const path of paths()) {
        for (const other of [profileOnly, postsOnly]) {
          const response: Response = await app.get(path, { credential: other });
          expectStatus(response, 403);
          expect(response.body.code).toBe('E_FORBIDDEN');
          expect(response.text).not.toBe(NOT_FOUND_TEXT);
        }
      }
    });

    it('refuses a revoked credential (403)', async () => {
      const revoked = alice.grant(app, ['read:memberships']);
      expectStatus(await app.get('/v1/memberships', { credential: revoked }), 200);
      await alice.revoke(revoked);
      for (const path of paths()) expectStatus(await app.get(path, { credential: revoked }), 403);
    });

    it('refuses an expired credential or one for another app (403)', async () => {
      const expired = issueCredential(alice.identity, {
        audience: app.did,
        host: t.config.publicHost,
        scopes: ['read:memberships'],
        clock: () => new Date(Date.now() - 3_600_000),
        expiresInSeconds: 60,
      }).token;
      const otherApp = alice.grant(bob, ['read:memberships']);
      for (const path of paths()) {
        expectStatus(await app.get(path, { credential: expired }), 403);
        expectStatus(await app.get(path, { credential: otherApp }), 403);
      }
    });

    it('reads the caller’s own memberships with a bare identity proof', async () => {
      const own = await alice.get('/v1/memberships');
      expectStatus(own, 200);
      expect(own.body).toEqual((await read('/v1/memberships')).body);
      expectStatus(await alice.get(`/v1/group-membership/${groups.adminA.id}`), 200);
    });
  });
});
