import {
  addMember,
  bootSpaces,
  Caller,
  configuredSpace,
  createSpace,
  expectInvalid,
  expectNotFound,
  expectStatus,
  newDid,
  SpacesTestApp,
} from './support';

describe('legacy spaces: joining, leaving, members, roles, kicks, bans, viewer, status (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Caller;

  beforeAll(async () => {
    t = await bootSpaces();
    owner = t.caller();
  });

  afterAll(async () => {
    await t.close();
  });

  describe('POST /spaces/{id}/join', () => {
    it('joins an open public space, idempotently, and records the activity', async () => {
      const id = await configuredSpace(owner, true, 'open');
      const before = (await owner.get(`/spaces/${id}`)).body.lastActivityAt;
      const joiner = t.caller();
      const outside = (await joiner.get(`/spaces/${id}`)).body;
      expect(outside).toMatchObject({ id, role: null, memberCount: null, lastActivityAt: null });
      const joined = await joiner.post(`/spaces/${id}/join`, { id });
      expectStatus(joined, 200);
      expect(joined.body).toEqual({ spaceId: id, status: 'member', role: 'member', applicationId: null });
      const again = await joiner.post(`/spaces/${id}/join`);
      expectStatus(again, 200);
      expect(again.body).toEqual(joined.body);
      const space = (await joiner.get(`/spaces/${id}`)).body;
      expect(space).toMatchObject({ memberCount: 2, role: 'member' });
      expect(Date.parse(space.lastActivityAt)).toBeGreaterThanOrEqual(Date.parse(before));
      expect((await owner.post(`/spaces/${id}/join`)).body.role).toBe('owner');
    });

    it('refuses spaces that are not open, and 404s private ones', async () => {
      const joiner = t.caller();
      const closedPublic = await configuredSpace(owner, true, 'closed');
      const applicationPublic = await configuredSpace(owner, true, 'application');
      const closedPrivate = await configuredSpace(owner, false, 'closed');
      expectStatus(await joiner.post(`/spaces/${closedPublic}/join`), 403);
      expectStatus(await joiner.post(`/spaces/${applicationPublic}/join`), 403);
      expectNotFound(await joiner.post(`/spaces/${closedPrivate}/join`));
      expectNotFound(await joiner.post(`/spaces/space_${'f'.repeat(32)}/join`));
      expectNotFound(await joiner.post('/spaces/whatever/join'));
      expect((await owner.get(`/spaces/${closedPublic}`)).body.memberCount).toBe(1);
    });

    it('refuses a mismatched id in the body', async () => {
      const id = await configuredSpace(owner, true, 'open');
      const other = await configuredSpace(owner, true, 'open');
      const joiner = t.caller();
      expectInvalid(await joiner.post(`/spaces/${id}/join`, { id: other }), 'id');
      expectInvalid(await joiner.post(`/spaces/${id}/join`, { id: 7 }), 'id');
      expectInvalid(await joiner.post(`/spaces/${id}/join`, { extra: true }), 'extra');
      expect((await owner.get(`/spaces/${id}`)).body.memberCount).toBe(1);
      expect((await owner.get(`/spaces/${other}`)).body.memberCount).toBe(1);
    });

    it('keeps the member count exact when many join at once', async () => {
      const id = await configuredSpace(owner, true, 'open');
      const people = Array.from({ length: 10 }, () => t.caller());
      const responses = await Promise.all(people.map((person) => person.post(`/spaces/${id}/join`)));
      expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
      expect((await owner.get(`/spaces/${id}`)).body.memberCount).toBe(11);
    });

    it('keeps the member count exact while admins edit the space concurrently', async () => {
      const id = await configuredSpace(owner, true, 'open');
      const joins = Array.from({ length: 8 }, () => t.caller().post(`/spaces/${id}/join`));
      const edits = Array.from({ length: 8 }, (_, i) =>
        owner.put(`/spaces/${id}`, { displayName: `Name ${i}` }),
      );
      const responses = await Promise.all([...joins, ...edits]);
      expect(responses.every((response) => response.status === 200)).toBe(true);
      expect((await owner.get(`/spaces/${id}`)).body.memberCount).toBe(9);
      const [row] = await t.dataSource.query(
        `SELECT count(*)::int AS n FROM space_memberships m JOIN spaces s ON s.id = m.space_id
         WHERE s.domain = $1 AND m.status = 'active'`,
        [`space-${id.slice('space_'.length)}`],
      );
      expect(row.n).toBe(9);
    });
  });

  describe('DELETE /spaces/{id}/membership', () => {
    it('leaves; the person may come back; the owner cannot leave', async () => {
      const id = await configuredSpace(owner, true, 'open');
      const person = t.caller();
      expectStatus(await person.post(`/spaces/${id}/join`), 200);
      expectStatus(await person.delete(`/spaces/${id}/membership`), 204);
      expect((await person.get(`/spaces/${id}`)).body).toMatchObject({ role: null, memberCount: null });
      expect((await owner.get(`/spaces/${id}`)).body.memberCount).toBe(1);
      expectNotFound(await person.delete(`/spaces/${id}/membership`));
      expectStatus(await person.post(`/spaces/${id}/join`), 200);
      expectStatus(await owner.delete(`/spaces/${id}/membership`), 409);
      expect((await owner.get(`/spaces/${id}`)).body.role).toBe('owner');
    });

    it('answers 404 to non-members and for private spaces they cannot see', async () => {
      const privateSpace = await configuredSpace(owner, false, 'closed');
      expectNotFound(await t.caller().delete(`/spaces/${privateSpace}/membership`));
      const publicSpace = await configuredSpace(owner, true, 'closed');
      expectNotFound(await t.caller().delete(`/spaces/${publicSpace}/membership`));
    });
  });

  describe('GET /spaces/{id}/members', () => {
    it('lists active members with roles, earliest first, in keyset pages', async () => {
      const id = await configuredSpace(owner, true, 'open');
      const people = [t.caller(), t.caller(), t.caller(), t.caller()];
      for (const person of people) expectStatus(await person.post(`/spaces/${id}/join`), 200);
      expectStatus(await owner.put(`/spaces/${id}/members/${people[0].did}`, { role: 'admin' }), 200);
      expectStatus(await people[3].delete(`/spaces/${id}/membership`), 204);
      const first = await people[1].get(`/spaces/${id}/members?limit=2`);
      expectStatus(first, 200);
      expect(first.body.items).toEqual([
        { did: owner.did, role: 'owner', joinedAt: expect.any(String), statusMessage: null },
        { did: people[0].did, role: 'admin', joinedAt: expect.any(String), statusMessage: null },
      ]);
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const second = await people[1].get(`/spaces/${id}/members?limit=2&after=${first.body.nextCursor}`);
      expect(second.body.items.map((item: { did: string }) => item.did)).toEqual([
        people[1].did,
        people[2].did,
      ]);
      expect(second.body.nextCursor).toBeNull();
      expect(second.body.previousCursor).toEqual(expect.any(String));
      const back = await people[1].get(`/spaces/${id}/members?limit=2&before=${second.body.previousCursor}`);
      expect(back.body.items).toEqual(first.body.items);
    });

    it('is for members: 403 for a non-member of a public space, 404 of a private one; bad paging is 400', async () => {
      const publicSpace = await configuredSpace(owner, true, 'closed');
      const privateSpace = await configuredSpace(owner, false, 'closed');
      expectStatus(await t.caller().get(`/spaces/${publicSpace}/members`), 403);
      expectNotFound(await t.caller().get(`/spaces/${privateSpace}/members`));
      expectInvalid(await owner.get(`/spaces/${publicSpace}/members?limit=0`), 'limit');
      expectInvalid(await owner.get(`/spaces/${publicSpace}/members?limit=101`), 'limit');
      expectStatus(await owner.get(`/spaces/${publicSpace}/members?after=forged.cursor`), 400);
      const bans = await owner.get(`/spaces/${publicSpace}/bans`);
      expectStatus(bans, 200);
    });
  });

  describe('PUT /spaces/{id}/members/{memberDid}', () => {
    it('promotes to admin and demotes to member, idempotently', async () => {
      const { id } = await createSpace(owner);
      const person = t.caller();
      await addMember(owner, id, person);
      const promoted = await owner.put(`/spaces/${id}/members/${person.did}`, {
        id,
        memberId: person.did,
        role: 'admin',
      });
      expectStatus(promoted, 200);
      expect(promoted.body).toMatchObject({ did: person.did, role: 'admin', statusMessage: null });
      expectStatus(await owner.put(`/spaces/${id}/members/${person.did}`, { role: 'admin' }), 200);
      // The new admin acts as one.
      expectStatus(await person.put(`/spaces/${id}`, { displayName: 'By the admin' }), 200);
      const demoted = await person.put(`/spaces/${id}/members/${person.did}`, { role: 'member' });
      expectStatus(demoted, 200);
      expect(demoted.body.role).toBe('member');
      expectStatus(await person.put(`/spaces/${id}`, { displayName: 'Not any more' }), 403);
    });

    it('never changes the owner, and only admins change roles', async () => {
      const { id } = await createSpace(owner);
      const admin = t.caller();
      const member = t.caller();
      await addMember(owner, id, admin);
      await addMember(owner, id, member);
      expectStatus(await owner.put(`/spaces/${id}/members/${admin.did}`, { role: 'admin' }), 200);
      expectStatus(await admin.put(`/spaces/${id}/members/${owner.did}`, { role: 'member' }), 403);
      expectStatus(await owner.put(`/spaces/${id}/members/${owner.did}`, { role: 'member' }), 403);
      expectStatus(await member.put(`/spaces/${id}/members/${member.did}`, { role: 'admin' }), 403);
      expectStatus(await member.put(`/spaces/${id}/members/${admin.did}`, { role: 'member' }), 403);
      expectNotFound(await t.caller().put(`/spaces/${id}/members/${admin.did}`, { role: 'member' }));
      expect((await member.get(`/spaces/${id}`)).body.role).toBe('member');
      expect((await owner.get(`/spaces/${id}`)).body.role).toBe('owner');
    });

    it('404s people who are not active members of this space, and malformed DIDs', async () => {
      const { id } = await createSpace(owner);
      const other = await createSpace(owner);
      const elsewhere = t.caller();
      await addMember(owner, other.id, elsewhere);
      expectNotFound(await owner.put(`/spaces/${id}/members/${elsewhere.did}`, { role: 'admin' }));
      expectNotFound(await owner.put(`/spaces/${id}/members/${newDid()}`, { role: 'admin' }));
      expectNotFound(await owner.put(`/spaces/${id}/members/did:plat:short`, { role: 'admin' }));
      expectNotFound(await owner.put(`/spaces/${id}/members/nobody`, { role: 'admin' }));
    });

    it('refuses bad bodies: unknown role, owner role, mismatched ids', async () => {
      const { id } = await createSpace(owner);
      const person = t.caller();
      await addMember(owner, id, person);
      const path = `/spaces/${id}/members/${person.did}`;
      expectInvalid(await owner.put(path, { role: 'owner' }), 'role');
      expectInvalid(await owner.put(path, { role: 'moderator' }), 'role');
      expectInvalid(await owner.put(path, {}), 'role');
      expectInvalid(await owner.put(path, { role: 'admin', memberId: newDid() }), 'memberId');
      expectInvalid(await owner.put(path, { role: 'admin', id: `space_${'0'.repeat(32)}` }), 'id');
      expect((await person.get(`/spaces/${id}`)).body.role).toBe('member');
    });
  });

  describe('DELETE /spaces/{id}/members/{memberDid} (kick)', () => {
    it('removes a member, who may rejoin an open space', async () => {
      const id = await configuredSpace(owner, true, 'open');
      const person = t.caller();
      expectStatus(await person.post(`/spaces/${id}/join`), 200);
      expectStatus(await owner.delete(`/spaces/${id}/members/${person.did}`), 204);
      expect((await person.get(`/spaces/${id}`)).body).toMatchObject({ role: null, memberCount: null });
      expect((await owner.get(`/spaces/${id}`)).body.memberCount).toBe(1);
      expectNotFound(await owner.delete(`/spaces/${id}/members/${person.did}`));
      expectStatus(await person.post(`/spaces/${id}/join`), 200);
    });

    it('is for admins, never against the owner or oneself', async () => {
      const id = await configuredSpace(owner, true, 'open');
      const admin = t.caller();
      const member = t.caller();
      for (const person of [admin, member]) expectStatus(await person.post(`/spaces/${id}/join`), 200);
      expectStatus(await owner.put(`/spaces/${id}/members/${admin.did}`, { role: 'admin' }), 200);
      expectStatus(await member.delete(`/spaces/${id}/members/${admin.did}`), 403);
      expectStatus(await t.caller().delete(`/spaces/${id}/members/${member.did}`), 403);
      expectStatus(await admin.delete(`/spaces/${id}/members/${owner.did}`), 403);
      expectStatus(await admin.delete(`/spaces/${id}/members/${admin.did}`), 403);
      expectStatus(await admin.delete(`/spaces/${id}/members/${member.did}`), 204);
      expect((await owner.get(`/spaces/${id}`)).body.memberCount).toBe(2);
    });
  });

  describe('bans', () => {
    it('bans a member, who cannot rejoin until unbanned', async () => {
      const id = await configuredSpace(owner, true, 'open');
      const person = t.caller();
      expectStatus(await person.post(`/spaces/${id}/join`), 200);
      const banned = await owner.post(`/spaces/${id}/members/${person.did}/bans`, {
        id,
        memberId: person.did,
      });
      expectStatus(banned, 200);
      expect(banned.body).toEqual({ did: person.did, bannedAt: expect.any(String), bannedBy: owner.did });
      const again = await owner.post(`/spaces/${id}/members/${person.did}/bans`);
      expect(again.body).toEqual(banned.body);
      expect((await owner.get(`/spaces/${id}`)).body.memberCount).toBe(1);
      expectStatus(await person.post(`/spaces/${id}/join`), 403);
      const invite = (await owner.post(`/spaces/${id}/my-invite`, {})).body;
      expectStatus(await person.post(`/spaces/join/${invite.inviteCode}`), 403);
      expect((await person.get(`/spaces/${id}/viewer`)).body).toEqual({
        status: null,
        role: null,
        canApply: false,
        isBanned: true,
      });
      const list = await owner.get(`/spaces/${id}/bans`);
      expect(list.body).toMatchObject({ items: [banned.body], nextCursor: null });

      expectStatus(await owner.delete(`/spaces/${id}/bans/${person.did}`), 204);
      expectNotFound(await owner.delete(`/spaces/${id}/bans/${person.did}`));
      expect((await owner.get(`/spaces/${id}/bans`)).body.items).toEqual([]);
      expectStatus(await person.post(`/spaces/${id}/join`), 200);
    });

    it('bans people who are not members (they stay out), and rejects their pending applications', async () => {
      const id = await configuredSpace(owner, true, 'application');
      const applicant = t.caller();
      const application = (await applicant.post(`/spaces/${id}/applications`, {})).body;
      const stranger = newDid();
      expectStatus(await owner.post(`/spaces/${id}/members/${stranger}/bans`), 200);
      expectStatus(await owner.post(`/spaces/${id}/members/${applicant.did}/bans`), 200);
      expect((await applicant.get(`/spaces/${id}/applications/me`)).body).toMatchObject({
        applicationId: application.applicationId,
        status: 'rejected',
      });
      expectStatus(await applicant.post(`/spaces/${id}/applications`, {}), 403);
      const page1 = await owner.get(`/spaces/${id}/bans?limit=1`);
      expect(page1.body.items[0].did).toBe(applicant.did);
      const page2 = await owner.get(`/spaces/${id}/bans?limit=1&after=${page1.body.nextCursor}`);
      expect(page2.body.items[0].did).toBe(stranger);
      expect(page2.body.nextCursor).toBeNull();
    });

    it('hides a private space from the people it banned', async () => {
      const { id } = await createSpace(owner);
      const person = t.caller();
      await addMember(owner, id, person);
      expectStatus(await owner.post(`/spaces/${id}/members/${person.did}/bans`), 200);
      expectNotFound(await person.get(`/spaces/${id}`));
      expectNotFound(await person.get(`/spaces/${id}/viewer`));
    });

    it('is for admins, never against the owner or oneself; malformed DIDs are 404', async () => {
      const id = await configuredSpace(owner, true, 'open');
      const admin = t.caller();
      const member = t.caller();
      for (const person of [admin, member]) expectStatus(await person.post(`/spaces/${id}/join`), 200);
      expectStatus(await owner.put(`/spaces/${id}/members/${admin.did}`, { role: 'admin' }), 200);
      expectStatus(await member.post(`/spaces/${id}/members/${admin.did}/bans`), 403);
      expectStatus(await member.get(`/spaces/${id}/bans`), 403);
      expectStatus(await member.delete(`/spaces/${id}/bans/${admin.did}`), 403);
      expectStatus(await t.caller().get(`/spaces/${id}/bans`), 403);
      expectStatus(await admin.post(`/spaces/${id}/members/${owner.did}/bans`), 403);
      expectStatus(await admin.post(`/spaces/${id}/members/${admin.did}/bans`), 403);
      expectNotFound(await admin.post(`/spaces/${id}/members/not-a-did/bans`));
      expectNotFound(await admin.delete(`/spaces/${id}/bans/not-a-did`));
      expectInvalid(
        await admin.post(`/spaces/${id}/members/${member.did}/bans`, { memberId: admin.did }),
        'memberId',
      );
      expect((await owner.get(`/spaces/${id}/bans`)).body.items).toEqual([]);
      // An admin may ban another admin; the banned admin's role is gone.
      expectStatus(await owner.put(`/spaces/${id}/members/${member.did}`, { role: 'admin' }), 200);
      expectStatus(await admin.post(`/spaces/${id}/members/${member.did}/bans`), 200);
      expect((await owner.get(`/spaces/${id}`)).body.memberCount).toBe(2);
    });
  });

  describe('GET /spaces/{id}/viewer', () => {
    it('describes member, pending and neither, with canApply', async () => {
      const id = await configuredSpace(owner, true, 'application');
      expect((await owner.get(`/spaces/${id}/viewer`)).body).toEqual({
        status: 'member',
        role: 'owner',
        canApply: false,
        isBanned: false,
      });
      const person = t.caller();
      expect((await person.get(`/spaces/${id}/viewer`)).body).toEqual({
        status: null,
        role: null,
        canApply: true,
        isBanned: false,
      });
      expectStatus(await person.post(`/spaces/${id}/applications`, {}), 201);
      expect((await person.get(`/spaces/${id}/viewer`)).body).toMatchObject({
        status: 'pending',
        canApply: false,
      });
      const closed = await configuredSpace(owner, true, 'closed');
      expect((await person.get(`/spaces/${closed}/viewer`)).body.canApply).toBe(false);
      expectNotFound(
        await person.get(`/spaces/${await configuredSpace(owner, false, 'application')}/viewer`),
      );
    });
  });

  describe('PUT /spaces/{id}/status', () => {
    it('sets and clears the caller’s status message, shown in the member list', async () => {
      const id = await configuredSpace(owner, true, 'open');
      const person = t.caller();
      expectStatus(await person.post(`/spaces/${id}/join`), 200);
      const set = await person.put(`/spaces/${id}/status`, { id, status: ' Building a kiln ' });
      expectStatus(set, 200);
      expect(set.body).toMatchObject({ did: person.did, role: 'member', statusMessage: 'Building a kiln' });
      const members = (await owner.get(`/spaces/${id}/members`)).body.items;
      expect(members.find((m: { did: string }) => m.did === person.did).statusMessage).toBe(
        'Building a kiln',
      );
      expect((await person.put(`/spaces/${id}/status`, { status: null })).body.statusMessage).toBeNull();
      expect((await person.put(`/spaces/${id}/status`, { status: '' })).body.statusMessage).toBeNull();
    });

    it('is for members and refuses bad bodies', async () => {
      const id = await configuredSpace(owner, true, 'open');
      expectStatus(await t.caller().put(`/spaces/${id}/status`, { status: 'hi' }), 403);
      expectNotFound(
        await t
          .caller()
          .put(`/spaces/${await configuredSpace(owner, false, 'closed')}/status`, { status: 'hi' }),
      );
      expectInvalid(await owner.put(`/spaces/${id}/status`, {}), 'status');
      expectInvalid(await owner.put(`/spaces/${id}/status`, { status: 5 }), 'status');
      expectInvalid(await owner.put(`/spaces/${id}/status`, { status: 'x'.repeat(281) }), 'status');
      expectInvalid(await owner.put(`/spaces/${id}/status`, { id: 'space_else', status: 'x' }), 'id');
      const members = (await owner.get(`/spaces/${id}/members`)).body.items;
      expect(members[0].statusMessage).toBeNull();
    });
  });
});
