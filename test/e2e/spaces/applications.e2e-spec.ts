import {
  addMember,
  bootSpaces,
  Caller,
  configuredSpace,
  count,
  expectInvalid,
  expectNotFound,
  expectStatus,
  SpacesTestApp,
} from './support';

describe('legacy spaces: applications and application settings (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Caller;

  beforeAll(async () => {
    t = await bootSpaces();
    owner = t.caller();
  });

  afterAll(async () => {
    await t.close();
  });

  const QUESTIONS = [
    { question: 'What do you make?', isRequired: true },
    { question: 'Anything else?', isRequired: false },
  ];

  async function applicationSpace(isPublic = true): Promise<string> {
    const id = await configuredSpace(owner, isPublic, 'application');
    expectStatus(await owner.put(`/spaces/${id}/application-settings`, { id, questions: QUESTIONS }), 200);
    return id;
  }

  describe('application settings', () => {
    it('stores up to 5 questions and shows them on the space', async () => {
      const id = await configuredSpace(owner, true, 'application');
      const questions = Array.from({ length: 5 }, (_, i) => ({
        question: `Q${i + 1}?`,
        isRequired: i % 2 === 0,
      }));
      const put = await owner.put(`/spaces/${id}/application-settings`, { questions });
      expectStatus(put, 200);
      expect(put.body).toEqual({ questions });
      expect((await t.caller().get(`/spaces/${id}/application-settings`)).body).toEqual({ questions });
      expect((await owner.get(`/spaces/${id}`)).body.applicationQuestions).toEqual(questions);
      expect((await owner.put(`/spaces/${id}/application-settings`, { questions: [] })).body).toEqual({
        questions: [],
      });
    });

    it('refuses more than 5 questions, duplicates and bad shapes, storing nothing', async () => {
      const id = await applicationSpace();
      const path = `/spaces/${id}/application-settings`;
      const six = Array.from({ length: 6 }, (_, i) => ({ question: `Q${i}?`, isRequired: false }));
      expectInvalid(await owner.put(path, { questions: six }), 'questions');
      expectInvalid(await owner.put(path, {}), 'questions');
      expectInvalid(await owner.put(path, { questions: 'Why?' }), 'questions');
      expectInvalid(await owner.put(path, { questions: [{ question: 'Why?' }] }), 'questions.0.isRequired');
      expectInvalid(
        await owner.put(path, { questions: [{ question: '', isRequired: true }] }),
        'questions.0.question',
      );
      expectInvalid(
        await owner.put(path, { questions: [{ question: 'x'.repeat(501), isRequired: true }] }),
        'questions.0.question',
      );
      expectInvalid(
        await owner.put(path, { questions: [{ question: 'Why?', isRequired: 'yes' }] }),
        'questions.0.isRequired',
      );
      expectInvalid(
        await owner.put(path, {
          questions: [
            { question: 'Why?', isRequired: true },
            { question: ' Why? ', isRequired: false },
          ],
        }),
        'questions.1.question',
      );
      expectInvalid(await owner.put(path, { id: 'space_nope', questions: [] }), 'id');
      expect((await owner.get(path)).body).toEqual({ questions: QUESTIONS });
    });

    it('is changed by admins only; read by anyone who reaches the space', async () => {
      const id = await applicationSpace();
      const member = t.caller();
      await addMember(owner, id, member);
      expectStatus(await member.put(`/spaces/${id}/application-settings`, { questions: [] }), 403);
      expectStatus(await t.caller().put(`/spaces/${id}/application-settings`, { questions: [] }), 403);
      expectStatus(await member.get(`/spaces/${id}/application-settings`), 200);
      const hidden = await applicationSpace(false);
      expectNotFound(await t.caller().get(`/spaces/${hidden}/application-settings`));
      expectNotFound(await t.caller().put(`/spaces/${hidden}/application-settings`, { questions: [] }));
    });
  });

  describe('POST /spaces/{id}/applications', () => {
    it('files a pending application with the responses in question order', async () => {
      const id = await applicationSpace();
      const applicant = t.caller();
      const response = await applicant.post(`/spaces/${id}/applications`, {
        id,
        responses: [
          { question: 'Anything else?', response: 'No' },
          { question: 'What do you make?', response: ' Pots ' },
        ],
      });
      expectStatus(response, 201);
      expect(response.body).toEqual({
        applicationId: expect.stringMatching(/^application_[0-9a-f]{32}$/),
        spaceId: id,
        applicantDid: applicant.did,
        status: 'pending',
        responses: [
          { question: 'What do you make?', response: 'Pots' },
          { question: 'Anything else?', response: 'No' },
        ],
        submittedAt: expect.any(String),
        decidedAt: null,
      });
      const mine = await applicant.get(`/spaces/${id}/applications/me`);
      expectStatus(mine, 200);
      expect(mine.body).toEqual(response.body);
      expectStatus(await applicant.post(`/spaces/${id}/applications`, { responses: [] }), 409);
    });

    it('refuses a missing required answer, unknown or repeated questions and bad shapes, storing nothing', async () => {
      const id = await applicationSpace();
      const applicant = t.caller();
      const path = `/spaces/${id}/applications`;
      const before = await count(t.dataSource, 'space_applications');
      expectInvalid(await applicant.post(path, {}), 'responses');
      expectInvalid(
        await applicant.post(path, { responses: [{ question: 'What do you make?', response: '  ' }] }),
        'responses',
      );
      expectInvalid(
        await applicant.post(path, {
          responses: [
            { question: 'What do you make?', response: 'Pots' },
            { question: 'Who are you?', response: 'Me' },
          ],
        }),
        'responses.1.question',
      );
      expectInvalid(
        await applicant.post(path, {
          responses: [
            { question: 'What do you make?', response: 'Pots' },
            { question: 'What do you make?', response: 'Bowls' },
          ],
        }),
        'responses.1.question',
      );
      expectInvalid(await applicant.post(path, { responses: 'Pots' }), 'responses');
      expectInvalid(
        await applicant.post(path, { responses: [{ question: 'What do you make?', response: 5 }] }),
        'responses.0.response',
      );
      expectInvalid(
        await applicant.post(path, {
          responses: [{ question: 'What do you make?', response: 'x'.repeat(2001) }],
        }),
        'responses.0.response',
      );
      const six = Array.from({ length: 6 }, () => ({ question: 'What do you make?', response: 'Pots' }));
      expectInvalid(await applicant.post(path, { responses: six }), 'responses');
      expectInvalid(await applicant.post(path, { id: 'space_x', responses: [] }), 'id');
      expect(await count(t.dataSource, 'space_applications')).toBe(before);
      expectNotFound(await applicant.get(`/spaces/${id}/applications/me`));
    });

    it('is only for spaces in application mode, and not for members or the banned', async () => {
      const closed = await configuredSpace(owner, true, 'closed');
      const open = await configuredSpace(owner, true, 'open');
      const hidden = await configuredSpace(owner, false, 'application');
      const applicant = t.caller();
      expectStatus(await applicant.post(`/spaces/${closed}/applications`, {}), 403);
      expectStatus(await applicant.post(`/spaces/${open}/applications`, {}), 403);
      expectNotFound(await applicant.post(`/spaces/${hidden}/applications`, {}));
      expectNotFound(await applicant.post(`/spaces/space_abc/applications`, {}));
      const id = await applicationSpace();
      expectStatus(
        await owner.post(`/spaces/${id}/applications`, {
          responses: [{ question: 'What do you make?', response: 'x' }],
        }),
        409,
      );
      const banned = t.caller();
      expectStatus(await owner.post(`/spaces/${id}/members/${banned.did}/bans`), 200);
      expectStatus(
        await banned.post(`/spaces/${id}/applications`, {
          responses: [{ question: 'What do you make?', response: 'x' }],
        }),
        403,
      );
    });

    it('answers 404 for the status of someone who never applied', async () => {
      const id = await applicationSpace();
      expectNotFound(await t.caller().get(`/spaces/${id}/applications/me`));
      expectNotFound(await t.caller().get(`/spaces/${await applicationSpace(false)}/applications/me`));
    });
  });

  describe('approve and reject', () => {
    const answer = { responses: [{ question: 'What do you make?', response: 'Pots' }] };

    it('pending → approved makes the applicant a member; approving again answers the same', async () => {
      const id = await applicationSpace();
      const applicant = t.caller();
      const filed = (await applicant.post(`/spaces/${id}/applications`, answer)).body;
      const approved = await owner.post(`/applications/${filed.applicationId}/approve`, {
        applicationId: filed.applicationId,
      });
      expectStatus(approved, 200);
      expect(approved.body).toMatchObject({ applicationId: filed.applicationId, status: 'approved' });
      expect(approved.body.decidedAt).toEqual(expect.any(String));
      expect((await applicant.get(`/spaces/${id}`)).body).toMatchObject({ role: 'member', memberCount: 2 });
      expect((await applicant.get(`/spaces/${id}/viewer`)).body).toMatchObject({
        status: 'member',
        role: 'member',
      });
      const again = await owner.post(`/applications/${filed.applicationId}/approve`);
      expect(again.body).toEqual(approved.body);
      expectStatus(await owner.post(`/applications/${filed.applicationId}/reject`), 409);
      expect((await applicant.get(`/spaces/${id}/applications/me`)).body.status).toBe('approved');
    });

    it('pending → rejected lets the applicant reapply', async () => {
      const id = await applicationSpace();
      const applicant = t.caller();
      const filed = (await applicant.post(`/spaces/${id}/applications`, answer)).body;
      const rejected = await owner.post(`/applications/${filed.applicationId}/reject`);
      expectStatus(rejected, 200);
      expect(rejected.body.status).toBe('rejected');
      expect((await owner.post(`/applications/${filed.applicationId}/reject`)).body).toEqual(rejected.body);
      expectStatus(await owner.post(`/applications/${filed.applicationId}/approve`), 409);
      expect((await applicant.get(`/spaces/${id}`)).body.role).toBeNull();
      expect((await applicant.get(`/spaces/${id}/viewer`)).body).toMatchObject({
        status: null,
        canApply: true,
      });
      const second = await applicant.post(`/spaces/${id}/applications`, answer);
      expectStatus(second, 201);
      expect(second.body.applicationId).not.toBe(filed.applicationId);
      expect((await applicant.get(`/spaces/${id}/applications/me`)).body.applicationId).toBe(
        second.body.applicationId,
      );
    });

    it('withdraws a pending application (DELETE /spaces/{id}/applications/me): canceled, may apply again, no decision after', async () => {
      const id = await applicationSpace();
      const applicant = t.caller();
      const filed = (await applicant.post(`/spaces/${id}/applications`, answer)).body;
      expect((await applicant.get(`/spaces/${id}/viewer`)).body.status).toBe('pending');
      const withdrawn = await applicant.delete(`/spaces/${id}/applications/me`);
      expectStatus(withdrawn, 200);
      expect(withdrawn.body).toMatchObject({ applicationId: filed.applicationId, status: 'canceled' });
      expect((await applicant.delete(`/spaces/${id}/applications/me`)).body).toEqual(withdrawn.body);
      expect((await applicant.get(`/spaces/${id}/applications/me`)).body.status).toBe('canceled');
      expect((await applicant.get(`/spaces/${id}/viewer`)).body).toMatchObject({
        status: null,
        canApply: true,
      });
      expectStatus(await owner.post(`/applications/${filed.applicationId}/approve`), 409);
      expectStatus(await owner.post(`/applications/${filed.applicationId}/reject`), 409);
      expect((await owner.get(`/spaces/${id}/applications`)).body.items).toEqual([]);
      expect((await owner.get(`/spaces/${id}/applications?status=canceled`)).body.items).toEqual([
        expect.objectContaining({ applicationId: filed.applicationId }),
      ]);
      expect((await applicant.get(`/spaces/${id}`)).body.role).toBeNull();

      const again = await applicant.post(`/spaces/${id}/applications`, answer);
      expectStatus(again, 201);
      expect(again.body.applicationId).not.toBe(filed.applicationId);
      const approved = await owner.post(`/applications/${again.body.applicationId}/approve`);
      expect(approved.body.status).toBe('approved');
      expectStatus(await applicant.delete(`/spaces/${id}/applications/me`), 409);
    });

    it('withdrawal is the 404 without an application, and for someone who cannot reach a private space', async () => {
      const id = await applicationSpace();
      expectNotFound(await t.caller().delete(`/spaces/${id}/applications/me`));
      const hidden = await applicationSpace(false);
      expectNotFound(await t.caller().delete(`/spaces/${hidden}/applications/me`));
      expectNotFound(await t.caller().delete(`/spaces/space_zz/applications/me`));
    });

    it('lets the applicant of a private space follow their application until decided', async () => {
      const id = await applicationSpace(false);
      const invite = (await owner.post(`/spaces/${id}/my-invite`, { joinModeOverride: 'inherit' })).body;
      const applicant = t.caller();
      const filed = (await applicant.post(`/spaces/join/${invite.inviteCode}`, answer)).body;
      expectStatus(await applicant.get(`/spaces/${id}`), 200);
      expectStatus(await owner.post(`/applications/${filed.applicationId}/reject`), 200);
      // Rejected, they no longer reach the space (docs/decisions/0116-past-applicants-of-private-spaces.md): they reapply through an invite.
      expectNotFound(await applicant.post(`/spaces/${id}/applications`, answer));
      const again = await applicant.post(`/spaces/join/${invite.inviteCode}`, answer);
      expectStatus(again, 200);
      expect(again.body).toMatchObject({ status: 'pending', applicationId: expect.any(String) });
      expect(again.body.applicationId).not.toBe(filed.applicationId);
      expectStatus(await applicant.get(`/spaces/${id}`), 200);
    });

    it('is for admins of that space; malformed, unknown and mismatched ids are refused', async () => {
      const id = await applicationSpace();
      const applicant = t.caller();
      const filed = (await applicant.post(`/spaces/${id}/applications`, answer)).body;
      const member = t.caller();
      await addMember(owner, id, member);
      const otherOwner = t.caller(); // an admin, of another space
      await configuredSpace(otherOwner, true, 'open');
      expectStatus(await member.post(`/applications/${filed.applicationId}/approve`), 403);
      expectStatus(await applicant.post(`/applications/${filed.applicationId}/approve`), 403);
      expectStatus(await otherOwner.post(`/applications/${filed.applicationId}/approve`), 403);
      expectStatus(await otherOwner.post(`/applications/${filed.applicationId}/reject`), 403);
      expectNotFound(await owner.post(`/applications/application_${'0'.repeat(32)}/approve`));
      expectNotFound(await owner.post('/applications/application_xyz/approve'));
      expectNotFound(
        await owner.post(`/applications/${filed.applicationId.replace('application_', 'space_')}/reject`),
      );
      expectInvalid(
        await owner.post(`/applications/${filed.applicationId}/approve`, {
          applicationId: 'application_other',
        }),
        'applicationId',
      );
      expect((await applicant.get(`/spaces/${id}/applications/me`)).body.status).toBe('pending');
      const hidden = await applicationSpace(false);
      const invite = (await owner.post(`/spaces/${hidden}/my-invite`, { joinModeOverride: 'application' }))
        .body;
      const hiddenApplication = (await t.caller().post(`/spaces/join/${invite.inviteCode}`, answer)).body;
      expectNotFound(await otherOwner.post(`/applications/${hiddenApplication.applicationId}/approve`));
    });

    it('does not admit an applicant banned after applying', async () => {
      const id = await applicationSpace();
      const applicant = t.caller();
      const filed = (await applicant.post(`/spaces/${id}/applications`, answer)).body;
      expectStatus(await owner.post(`/spaces/${id}/members/${applicant.did}/bans`), 200);
      expectStatus(await owner.post(`/applications/${filed.applicationId}/approve`), 409);
      expect((await owner.get(`/spaces/${id}`)).body.memberCount).toBe(1);
    });
  });

  /**
   * Anyone who had ever applied to a private space (rejected, withdrawn, approved
   * and kicked since) kept reading its record and questions through GET /spaces/{id}. A past
   * applicant is a stranger again: the constant 404 everywhere but their own application record
   * (docs/decisions/0116-past-applicants-of-private-spaces.md).
   */
  describe('past applicants of a private space', () => {
    const answer = { responses: [{ question: 'What do you make?', response: 'Pots' }] };
    let id: string;
    let inviteCode: string;

    beforeAll(async () => {
      id = await applicationSpace(false);
      inviteCode = (await owner.post(`/spaces/${id}/my-invite`, { joinModeOverride: 'application' })).body
        .inviteCode;
    });

    const apply = async (applicant: Caller): Promise<string> => {
      const filed = await applicant.post(`/spaces/join/${inviteCode}`, answer);
      expectStatus(filed, 200);
      expect(filed.body.status).toBe('pending');
      return filed.body.applicationId as string;
    };
    /** Every read of the space a stranger gets the one 404 for. */
    const expectStranger = async (caller: Caller) => {
      expectNotFound(await caller.get(`/spaces/${id}`));
      expectNotFound(await caller.get(`/spaces/${id}/application-settings`));
      expectNotFound(await caller.get(`/spaces/${id}/viewer`));
      expectNotFound(await caller.post(`/spaces/${id}/applications`, answer));
      expectNotFound(await caller.post(`/spaces/${id}/join`, {}));
    };

    it('a pending applicant reads the space record and its questions', async () => {
      const applicant = t.caller();
      await apply(applicant);
      const space = await applicant.get(`/spaces/${id}`);
      expectStatus(space, 200);
      expect(space.body).toMatchObject({ id, role: null, applicationQuestions: QUESTIONS });
      expect((await applicant.get(`/spaces/${id}/application-settings`)).body).toEqual({
        questions: QUESTIONS,
      });
      expect((await applicant.get(`/spaces/${id}/viewer`)).body).toMatchObject({ status: 'pending' });
    });

    it('a rejected applicant gets the constant 404, and still reads their own application', async () => {
      const applicant = t.caller();
      const applicationId = await apply(applicant);
      expectStatus(await owner.post(`/applications/${applicationId}/reject`), 200);
      await expectStranger(applicant);
      const mine = await applicant.get(`/spaces/${id}/applications/me`);
      expectStatus(mine, 200);
      expect(mine.body).toMatchObject({ applicationId, status: 'rejected' });
      expectStatus(await applicant.delete(`/spaces/${id}/applications/me`), 409);
      // An invite lets them apply again, and they read the space while that is pending.
      await apply(applicant);
      expectStatus(await applicant.get(`/spaces/${id}`), 200);
    });

    it('a withdrawn applicant gets the constant 404; withdrawing again answers the same record', async () => {
      const applicant = t.caller();
      await apply(applicant);
      const withdrawn = await applicant.delete(`/spaces/${id}/applications/me`);
      expectStatus(withdrawn, 200);
      expect(withdrawn.body.status).toBe('canceled');
      await expectStranger(applicant);
      expect((await applicant.delete(`/spaces/${id}/applications/me`)).body).toEqual(withdrawn.body);
      expect((await applicant.get(`/spaces/${id}/applications/me`)).body).toEqual(withdrawn.body);
    });

    it('an approved applicant reads the space while a member; once kicked or gone, the constant 404', async () => {
      for (const end of ['kick', 'leave'] as const) {
        const applicant = t.caller();
        const applicationId = await apply(applicant);
        expectStatus(await owner.post(`/applications/${applicationId}/approve`), 200);
        expect((await applicant.get(`/spaces/${id}`)).body).toMatchObject({ id, role: 'member' });
        if (end === 'kick') expectStatus(await owner.delete(`/spaces/${id}/members/${applicant.did}`), 204);
        else expectStatus(await applicant.delete(`/spaces/${id}/membership`), 204);
        await expectStranger(applicant);
        expect((await applicant.get(`/spaces/${id}/applications/me`)).body.status).toBe('approved');
      }
    });

    it('a banned applicant gets the constant 404, their own application included', async () => {
      const applicant = t.caller();
      await apply(applicant);
      expectStatus(await owner.post(`/spaces/${id}/members/${applicant.did}/bans`), 200);
      await expectStranger(applicant);
      expectNotFound(await applicant.get(`/spaces/${id}/applications/me`));
      expectNotFound(await applicant.delete(`/spaces/${id}/applications/me`));
    });
  });

  describe('GET /spaces/{id}/applications', () => {
    it('lists pending applications oldest first for admins, in keyset pages, filterable by status', async () => {
      const id = await applicationSpace();
      const people = [t.caller(), t.caller(), t.caller()];
      const filed = [];
      for (const person of people) {
        filed.push(
          (
            await person.post(`/spaces/${id}/applications`, {
              responses: [{ question: 'What do you make?', response: 'x' }],
            })
          ).body,
        );
      }
      expectStatus(await owner.post(`/applications/${filed[1].applicationId}/reject`), 200);
      const first = await owner.get(`/spaces/${id}/applications?limit=1`);
      expectStatus(first, 200);
      expect(first.body.items.map((a: { applicationId: string }) => a.applicationId)).toEqual([
        filed[0].applicationId,
      ]);
      const second = await owner.get(`/spaces/${id}/applications?limit=1&after=${first.body.nextCursor}`);
      expect(second.body.items.map((a: { applicationId: string }) => a.applicationId)).toEqual([
        filed[2].applicationId,
      ]);
      expect(second.body.nextCursor).toBeNull();
      const rejected = await owner.get(`/spaces/${id}/applications?status=rejected`);
      expect(rejected.body.items.map((a: { applicationId: string }) => a.applicationId)).toEqual([
        filed[1].applicationId,
      ]);
      expectInvalid(await owner.get(`/spaces/${id}/applications?status=maybe`), 'status');
      expectStatus(
        await owner.get(`/spaces/${id}/applications?status=rejected&after=${first.body.nextCursor}`),
        400,
      );
      expectStatus(await people[0].get(`/spaces/${id}/applications`), 403);
    });
  });
});
