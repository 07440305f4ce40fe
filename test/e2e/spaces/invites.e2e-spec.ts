import {
  bootSpaces,
  Caller,
  configuredSpace,
  count,
  createSpace,
  expectInvalid,
  expectNotFound,
  expectStatus,
  SpacesTestApp,
} from './support';

describe('legacy spaces: invites and joining by code (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Caller;

  beforeAll(async () => {
    t = await bootSpaces();
    owner = t.caller();
  });

  afterAll(async () => {
    await t.close();
  });

  afterEach(() => {
    t.clock.offsetMs = 0;
  });

  describe('POST, GET, DELETE /spaces/{id}/my-invite', () => {
    it('creates an invite record with the defaults (1000 uses, 30 days, instant)', async () => {
      const { id } = await createSpace(owner);
      const before = Date.now();
      const response = await owner.post(`/spaces/${id}/my-invite`, { id });
      expectStatus(response, 201);
      const invite = response.body;
      expect(invite).toMatchObject({
        spaceId: id,
        maxUses: 1000,
        usesRemaining: 1000,
        joinModeOverride: 'instant',
      });
      // api-spec.md's invite record, plus spaceId (docs/decisions/0040-space-records-the-spec-does-not-show.md), and nothing else.
      expect(Object.keys(invite).sort()).toEqual(
        [
          'inviteId',
          'inviteCode',
          'spaceId',
          'expiresAt',
          'usesRemaining',
          'maxUses',
          'joinModeOverride',
          'createdAt',
        ].sort(),
      );
      expect(invite.inviteId).toMatch(/^space_invite_[0-9a-f]{32}$/);
      expect(invite.inviteCode).toMatch(/^[A-Za-z0-9_-]{22}$/);
      const expires = Date.parse(invite.expiresAt) - before;
      expect(expires).toBeGreaterThan(43200 * 60_000 - 5_000);
      expect(expires).toBeLessThanOrEqual(43200 * 60_000 + 5_000);
      const current = await owner.get(`/spaces/${id}/my-invite`);
      expectStatus(current, 200);
      expect(current.body).toEqual(invite);
    });

    it('takes maxUses, expiresInMinutes and joinModeOverride', async () => {
      const { id } = await createSpace(owner);
      const response = await owner.post(`/spaces/${id}/my-invite`, {
        maxUses: 3,
        expiresInMinutes: 10,
        joinModeOverride: 'application',
      });
      expectStatus(response, 201);
      expect(response.body).toMatchObject({ maxUses: 3, usesRemaining: 3, joinModeOverride: 'application' });
      expect(Date.parse(response.body.expiresAt) - Date.parse(response.body.createdAt)).toBe(10 * 60_000);
    });

    it('refuses out-of-range and mistyped parameters, storing nothing', async () => {
      const { id } = await createSpace(owner);
      const before = await count(t.dataSource, 'space_invites');
      for (const [body, path] of [
        [{ maxUses: 1001 }, 'maxUses'],
        [{ maxUses: 0 }, 'maxUses'],
        [{ maxUses: 2.5 }, 'maxUses'],
        [{ maxUses: '5' }, 'maxUses'],
        [{ expiresInMinutes: 43201 }, 'expiresInMinutes'],
        [{ expiresInMinutes: 0 }, 'expiresInMinutes'],
        [{ joinModeOverride: 'open' }, 'joinModeOverride'],
        [{ joinModeOverride: null }, undefined],
        [{ id: 'space_other' }, 'id'],
        [{ code: 'mine' }, 'code'],
      ] as [Record<string, unknown>, string | undefined][]) {
        const response = await owner.post(`/spaces/${id}/my-invite`, body);
        if (body.joinModeOverride === null) {
          // null is "not given" for optional members: the default applies.
          expectStatus(response, 201);
          await owner.delete(`/spaces/${id}/my-invite`);
          continue;
        }
        expectInvalid(response, path);
      }
      expect(await count(t.dataSource, 'space_invites')).toBe(before + 1);
      expectNotFound(await owner.get(`/spaces/${id}/my-invite`));
    });

    it('keeps one active invite per admin: regenerating invalidates the old code', async () => {
      const id = await configuredSpace(owner, false, 'closed');
      const first = (await owner.post(`/spaces/${id}/my-invite`, {})).body;
      const second = (await owner.post(`/spaces/${id}/my-invite`, {})).body;
      expect(second.inviteCode).not.toBe(first.inviteCode);
      expect((await owner.get(`/spaces/${id}/my-invite`)).body.inviteId).toBe(second.inviteId);
      const joiner = t.caller();
      expectNotFound(await joiner.get(`/spaces/invites/${first.inviteCode}`));
      expectNotFound(await joiner.post(`/spaces/join/${first.inviteCode}`));
      expectStatus(await joiner.post(`/spaces/join/${second.inviteCode}`), 200);
    });

    it('gives each admin their own invite', async () => {
      const id = await configuredSpace(owner, false, 'closed');
      const admin = t.caller();
      const ownerInvite = (await owner.post(`/spaces/${id}/my-invite`, {})).body;
      expectStatus(await admin.post(`/spaces/join/${ownerInvite.inviteCode}`), 200);
      expectStatus(await owner.put(`/spaces/${id}/members/${admin.did}`, { role: 'admin' }), 200);
      const adminInvite = (await admin.post(`/spaces/${id}/my-invite`, {})).body;
      expect((await owner.get(`/spaces/${id}/my-invite`)).body.inviteId).toBe(ownerInvite.inviteId);
      expect((await admin.get(`/spaces/${id}/my-invite`)).body.inviteId).toBe(adminInvite.inviteId);
    });

    it('revokes: DELETE stops the code and is idempotent', async () => {
      const { id } = await createSpace(owner);
      const invite = (await owner.post(`/spaces/${id}/my-invite`, {})).body;
      expectStatus(await owner.delete(`/spaces/${id}/my-invite`), 204);
      expectStatus(await owner.delete(`/spaces/${id}/my-invite`), 204);
      expectNotFound(await owner.get(`/spaces/${id}/my-invite`));
      expectNotFound(await t.caller().get(`/spaces/invites/${invite.inviteCode}`));
      expectNotFound(await t.caller().post(`/spaces/join/${invite.inviteCode}`));
    });

    it('is for admins: 403 for members of any space, 404 for strangers of a private space', async () => {
      const id = await configuredSpace(owner, false, 'closed');
      const stranger = t.caller();
      expectNotFound(await stranger.post(`/spaces/${id}/my-invite`, {}));
      expectNotFound(await stranger.get(`/spaces/${id}/my-invite`));
      expectNotFound(await stranger.delete(`/spaces/${id}/my-invite`));
      const member = t.caller();
      const invite = (await owner.post(`/spaces/${id}/my-invite`, {})).body;
      expectStatus(await member.post(`/spaces/join/${invite.inviteCode}`), 200);
      expectStatus(await member.post(`/spaces/${id}/my-invite`, {}), 403);
      expectStatus(await member.get(`/spaces/${id}/my-invite`), 403);
      expectStatus(await member.delete(`/spaces/${id}/my-invite`), 403);
      const open = await configuredSpace(owner, true, 'open');
      expectStatus(await stranger.post(`/spaces/${open}/my-invite`, {}), 403);
      expectNotFound(await owner.get(`/spaces/space_nothex/my-invite`));
    });

    it('stops admitting when its admin is demoted, kicked or leaves', async () => {
      const id = await configuredSpace(owner, false, 'closed');
      const admins = [t.caller(), t.caller(), t.caller()];
      const codes: string[] = [];
      for (const admin of admins) {
        const invite = (await owner.post(`/spaces/${id}/my-invite`, {})).body;
        expectStatus(await admin.post(`/spaces/join/${invite.inviteCode}`), 200);
        expectStatus(await owner.put(`/spaces/${id}/members/${admin.did}`, { role: 'admin' }), 200);
        codes.push((await admin.post(`/spaces/${id}/my-invite`, {})).body.inviteCode);
      }
      expectStatus(await owner.put(`/spaces/${id}/members/${admins[0].did}`, { role: 'member' }), 200);
      expectStatus(await owner.delete(`/spaces/${id}/members/${admins[1].did}`), 204);
      expectStatus(await admins[2].delete(`/spaces/${id}/membership`), 204);
      for (const code of codes) expectNotFound(await t.caller().post(`/spaces/join/${code}`));
    });
  });

  describe('GET /spaces/invites/{code}', () => {
    it('previews the space to anyone, with the caller’s status when authenticated', async () => {
      const { id, did } = await createSpace(owner, 'Previewed');
      const invite = (await owner.post(`/spaces/${id}/my-invite`, {})).body;
      const anonymous = await t.anonymous.get(`/spaces/invites/${invite.inviteCode}`);
      expectStatus(anonymous, 200);
      expect(anonymous.body).toEqual({
        spaceId: id,
        spaceDID: did,
        domain: `space-${id.slice('space_'.length)}`,
        displayName: 'Previewed',
        description: 'A place to make things',
        avatar: null,
        banner: null,
        memberCount: 1,
        isPublic: false,
        effectiveJoinMode: 'instant',
        applicationQuestions: null,
        expiresAt: invite.expiresAt,
        userStatus: { isMember: false },
      });
      expect((await owner.get(`/spaces/invites/${invite.inviteCode}`)).body.userStatus).toEqual({
        isMember: true,
      });
      expect((await t.caller().get(`/spaces/invites/${invite.inviteCode}`)).body.userStatus).toEqual({
        isMember: false,
      });
    });

    it('shows the effective join mode and the questions when the invite asks for an application', async () => {
      const id = await configuredSpace(owner, false, 'application');
      const questions = [{ question: 'Why?', isRequired: true }];
      expectStatus(await owner.put(`/spaces/${id}/application-settings`, { questions }), 200);
      const cases: [string, string][] = [
        ['instant', 'instant'],
        ['application', 'application'],
        ['inherit', 'application'],
      ];
      for (const [override, effective] of cases) {
        const invite = (await owner.post(`/spaces/${id}/my-invite`, { joinModeOverride: override })).body;
        const preview = (await t.anonymous.get(`/spaces/invites/${invite.inviteCode}`)).body;
        expect(preview.effectiveJoinMode).toBe(effective);
        expect(preview.applicationQuestions).toEqual(effective === 'application' ? questions : null);
      }
      expectStatus(await owner.put(`/spaces/${id}/public-config`, { isPublic: true, joinMode: 'open' }), 200);
      const inherit = (await owner.post(`/spaces/${id}/my-invite`, { joinModeOverride: 'inherit' })).body;
      expect((await t.anonymous.get(`/spaces/invites/${inherit.inviteCode}`)).body.effectiveJoinMode).toBe(
        'instant',
      );
    });

    it('answers the one 404 for unknown, malformed, expired, used-up and revoked codes', async () => {
      const { id } = await createSpace(owner);
      const invite = (await owner.post(`/spaces/${id}/my-invite`, { maxUses: 1, expiresInMinutes: 5 })).body;
      expectNotFound(await t.anonymous.get('/spaces/invites/AAAAAAAAAAAAAAAAAAAAAA'));
      expectNotFound(await t.anonymous.get('/spaces/invites/short'));
      expectNotFound(await t.anonymous.get(`/spaces/invites/${invite.inviteCode}%20`));
      t.clock.offsetMs = 5 * 60_000 + 1;
      expectNotFound(await t.anonymous.get(`/spaces/invites/${invite.inviteCode}`));
      t.clock.offsetMs = 0;
      expectStatus(await t.caller().post(`/spaces/join/${invite.inviteCode}`), 200);
      expectNotFound(await t.anonymous.get(`/spaces/invites/${invite.inviteCode}`));
    });
  });

  describe('POST /spaces/join/{code}', () => {
    it('joins a closed private space instantly and counts the use', async () => {
      const id = await configuredSpace(owner, false, 'closed');
      const invite = (await owner.post(`/spaces/${id}/my-invite`, { maxUses: 2 })).body;
      const joiner = t.caller();
      const joined = await joiner.post(`/spaces/join/${invite.inviteCode}`, { code: invite.inviteCode });
      expectStatus(joined, 200);
      expect(joined.body).toEqual({ spaceId: id, status: 'member', role: 'member', applicationId: null });
      expect((await joiner.get(`/spaces/${id}`)).body).toMatchObject({ role: 'member', memberCount: 2 });
      expect((await owner.get(`/spaces/${id}/my-invite`)).body.usesRemaining).toBe(1);
    });

    it('answers a member joining again without using the code up; a used-up code admits nobody', async () => {
      const { id } = await createSpace(owner);
      const invite = (await owner.post(`/spaces/${id}/my-invite`, { maxUses: 1 })).body;
      const joiner = t.caller();
      expectStatus(await owner.post(`/spaces/join/${invite.inviteCode}`), 200);
      expect((await owner.get(`/spaces/${id}/my-invite`)).body.usesRemaining).toBe(1);
      expectStatus(await joiner.post(`/spaces/join/${invite.inviteCode}`), 200);
      const again = await joiner.post(`/spaces/join/${invite.inviteCode}`);
      expectNotFound(again); // used up: the code no longer admits anyone, members included
    });

    it('refuses used-up, expired and revoked codes with the one 404', async () => {
      const { id } = await createSpace(owner);
      const invite = (await owner.post(`/spaces/${id}/my-invite`, { maxUses: 2, expiresInMinutes: 1 })).body;
      expectStatus(await t.caller().post(`/spaces/join/${invite.inviteCode}`), 200);
      expectStatus(await t.caller().post(`/spaces/join/${invite.inviteCode}`), 200);
      expectNotFound(await t.caller().post(`/spaces/join/${invite.inviteCode}`));
      expect((await owner.get(`/spaces/${id}`)).body.memberCount).toBe(3);

      const timed = (await owner.post(`/spaces/${id}/my-invite`, { expiresInMinutes: 1 })).body;
      t.clock.offsetMs = 61_000;
      expectNotFound(await t.caller().post(`/spaces/join/${timed.inviteCode}`));
      expectNotFound(await owner.get(`/spaces/${id}/my-invite`));
      t.clock.offsetMs = 0;
      expectStatus(await t.caller().post(`/spaces/join/${timed.inviteCode}`), 200);

      expectStatus(await owner.delete(`/spaces/${id}/my-invite`), 204);
      expectNotFound(await t.caller().post(`/spaces/join/${timed.inviteCode}`));
      expectNotFound(await t.caller().post('/spaces/join/not-a-code'));
    });

    it('refuses a banned person (403) and a mismatched code in the body (400)', async () => {
      const { id } = await createSpace(owner);
      const invite = (await owner.post(`/spaces/${id}/my-invite`, {})).body;
      const banned = t.caller();
      expectStatus(await owner.post(`/spaces/${id}/members/${banned.did}/bans`), 200);
      expectStatus(await banned.post(`/spaces/join/${invite.inviteCode}`), 403);
      expectInvalid(await t.caller().post(`/spaces/join/${invite.inviteCode}`, { code: 'other' }), 'code');
      expect((await owner.get(`/spaces/${id}/my-invite`)).body.usesRemaining).toBe(1000);
    });

    it('files an application when the invite asks for one, validating the responses', async () => {
      const id = await configuredSpace(owner, false, 'closed');
      expectStatus(
        await owner.put(`/spaces/${id}/application-settings`, {
          questions: [
            { question: 'Why?', isRequired: true },
            { question: 'Where from?', isRequired: false },
          ],
        }),
        200,
      );
      const invite = (await owner.post(`/spaces/${id}/my-invite`, { joinModeOverride: 'application' })).body;
      const applicant = t.caller();
      expectInvalid(await applicant.post(`/spaces/join/${invite.inviteCode}`), 'responses');
      expectInvalid(
        await applicant.post(`/spaces/join/${invite.inviteCode}`, {
          responses: [{ question: 'Who?', response: 'me' }],
        }),
        'responses.0.question',
      );
      expect(await count(t.dataSource, 'space_applications')).toBe(0);
      const filed = await applicant.post(`/spaces/join/${invite.inviteCode}`, {
        responses: [{ question: 'Why?', response: 'To learn' }],
      });
      expectStatus(filed, 200);
      expect(filed.body).toMatchObject({ spaceId: id, status: 'pending', role: null });
      expect(filed.body.applicationId).toMatch(/^application_[0-9a-f]{32}$/);
      const again = await applicant.post(`/spaces/join/${invite.inviteCode}`);
      expect(again.body).toEqual(filed.body);
      expect((await owner.get(`/spaces/${id}/my-invite`)).body.usesRemaining).toBe(999);
      // The applicant now reaches the private space: its status, record and viewer relationship.
      expect((await applicant.get(`/spaces/${id}/applications/me`)).body).toMatchObject({
        applicationId: filed.body.applicationId,
        status: 'pending',
      });
      expect((await applicant.get(`/spaces/${id}/viewer`)).body).toMatchObject({
        status: 'pending',
        role: null,
      });
      const approved = await owner.post(`/applications/${filed.body.applicationId}/approve`);
      expectStatus(approved, 200);
      expect((await applicant.get(`/spaces/${id}`)).body.role).toBe('member');
    });

    it('joins instantly with inherit on a closed space and applies with inherit on an application space', async () => {
      const closed = await configuredSpace(owner, false, 'closed');
      const closedInvite = (await owner.post(`/spaces/${closed}/my-invite`, { joinModeOverride: 'inherit' }))
        .body;
      expect((await t.caller().post(`/spaces/join/${closedInvite.inviteCode}`)).body.status).toBe('member');
      const applying = await configuredSpace(owner, true, 'application');
      const applyInvite = (await owner.post(`/spaces/${applying}/my-invite`, { joinModeOverride: 'inherit' }))
        .body;
      expect((await t.caller().post(`/spaces/join/${applyInvite.inviteCode}`)).body.status).toBe('pending');
      const instant = (await owner.post(`/spaces/${applying}/my-invite`, { joinModeOverride: 'instant' }))
        .body;
      expect((await t.caller().post(`/spaces/join/${instant.inviteCode}`)).body.status).toBe('member');
    });

    it('lets a kicked member rejoin by code', async () => {
      const { id } = await createSpace(owner);
      const invite = (await owner.post(`/spaces/${id}/my-invite`, {})).body;
      const person = t.caller();
      expectStatus(await person.post(`/spaces/join/${invite.inviteCode}`), 200);
      expectStatus(await owner.delete(`/spaces/${id}/members/${person.did}`), 204);
      expectNotFound(await person.get(`/spaces/${id}`));
      expectStatus(await person.post(`/spaces/join/${invite.inviteCode}`), 200);
      expect((await person.get(`/spaces/${id}`)).body.role).toBe('member');
    });

    it('needs an authenticated caller', async () => {
      const { id } = await createSpace(owner);
      const invite = (await owner.post(`/spaces/${id}/my-invite`, {})).body;
      expectStatus(await t.anonymous.post(`/spaces/join/${invite.inviteCode}`), 401);
    });

    it('admits exactly maxUses people when they race', async () => {
      const { id } = await createSpace(owner);
      const invite = (await owner.post(`/spaces/${id}/my-invite`, { maxUses: 3 })).body;
      const responses = await Promise.all(
        Array.from({ length: 8 }, () => t.caller().post(`/spaces/join/${invite.inviteCode}`)),
      );
      expect(responses.filter((response) => response.status === 200)).toHaveLength(3);
      expect(responses.filter((response) => response.status === 404)).toHaveLength(5);
      expect((await owner.get(`/spaces/${id}`)).body.memberCount).toBe(4);
    });
  });
});
