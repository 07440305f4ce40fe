import { Response } from 'supertest';
import {
  addMember,
  bootSpaces,
  Caller,
  count,
  createSpace,
  expectInvalid,
  expectNotFound,
  expectStatus,
  newDid,
  publicSpace,
  SpacesTestApp,
} from './support';

/**
 * Cross-cutting rules of api-spec.md's legacy Spaces table, "States and transitions" and the 404
 * rules, checked route by route: every admin route refuses a non-admin member with 403, a deleted
 * space is missing everywhere (public reads and administration included), and illegal transitions
 * answer their status without changing anything.
 */
describe('legacy spaces: contract audit across routes (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Caller;

  beforeAll(async () => {
    t = await bootSpaces();
    owner = t.caller();
  });

  afterAll(async () => {
    await t.close();
  });

  it('PUT /spaces/{id} naming no field is a 400 with details and changes nothing', async () => {
    const { id } = await createSpace(owner, 'Unchanged');
    expectInvalid(await owner.put(`/spaces/${id}`, {}));
    expectInvalid(await owner.put(`/spaces/${id}`, { id }));
    expect((await owner.get(`/spaces/${id}`)).body.displayName).toBe('Unchanged');
  });

  it('answers 403 to a non-admin member on every admin route, and changes nothing', async () => {
    const id = await publicSpace(owner, 'application');
    const member = t.caller();
    await addMember(owner, id, member);
    const applicant = t.caller();
    const application = await applicant.post(`/spaces/${id}/applications`, {});
    expectStatus(application, 201);
    const appId = application.body.applicationId as string;
    const topic = await owner.post(`/spaces/${id}/topics`, { name: 'News', access: 'public' });
    expectStatus(topic, 201);
    const page = await owner.post(`/spaces/${id}/pages`, { title: 'About', body: 'Hello' });
    expectStatus(page, 201);
    const banned = newDid();
    expectStatus(await owner.post(`/spaces/${id}/members/${banned}/bans`), 200);
    const ownerDid = owner.did!;
    const before = (await owner.get(`/spaces/${id}`)).body;

    const calls: [string, () => Promise<Response>][] = [
      ['update', () => member.put(`/spaces/${id}`, { displayName: 'Taken over' })],
      ['delete', () => member.delete(`/spaces/${id}`)],
      ['config', () => member.put(`/spaces/${id}/public-config`, { isPublic: true, joinMode: 'open' })],
      ['domain', () => member.put(`/spaces/${id}/domain`, { domain: 'takeover' })],
      ['invite+', () => member.post(`/spaces/${id}/my-invite`, {})],
      ['invite', () => member.get(`/spaces/${id}/my-invite`)],
      ['invite-', () => member.delete(`/spaces/${id}/my-invite`)],
      ['list apps', () => member.get(`/spaces/${id}/applications`)],
      ['approve', () => member.post(`/applications/${appId}/approve`)],
      ['reject', () => member.post(`/applications/${appId}/reject`)],
      ['settings+', () => member.put(`/spaces/${id}/application-settings`, { questions: [] })],
      ['role', () => member.put(`/spaces/${id}/members/${member.did}`, { role: 'admin' })],
      ['role owner', () => member.put(`/spaces/${id}/members/${ownerDid}`, { role: 'member' })],
      ['kick', () => member.delete(`/spaces/${id}/members/${ownerDid}`)],
      ['ban', () => member.post(`/spaces/${id}/members/${ownerDid}/bans`)],
      ['bans', () => member.get(`/spaces/${id}/bans`)],
      ['unban', () => member.delete(`/spaces/${id}/bans/${banned}`)],
      ['site', () => member.put(`/spaces/${id}/site`, { siteMode: 'posts' })],
      ['topics', () => member.get(`/spaces/${id}/topics`)],
      ['topic+', () => member.post(`/spaces/${id}/topics`, { name: 'Mine', access: 'public' })],
      ['topic', () => member.put(`/spaces/${id}/topics/${topic.body.id}`, { name: 'X', access: 'public' })],
      ['topic-', () => member.delete(`/spaces/${id}/topics/${topic.body.id}`)],
      ['pages', () => member.get(`/spaces/${id}/pages`)],
      ['page+', () => member.post(`/spaces/${id}/pages`, { title: 'Mine', body: 'x' })],
      ['page', () => member.put(`/spaces/${id}/pages/${page.body.id}`, { title: 'X', body: 'y' })],
      ['page-', () => member.delete(`/spaces/${id}/pages/${page.body.id}`)],
      ['verify', () => member.post(`/spaces/${id}/domain-verification`, { domain: 'example.com' })],
    ];
    for (const [name, call] of calls) {
      const response = await call();
      if (response.status !== 403) throw new Error(`${name}: ${response.status} ${response.text}`);
      expect(response.body.code).toBe('E_FORBIDDEN');
    }

    const after = (await owner.get(`/spaces/${id}`)).body;
    expect(after).toEqual(before);
    expect((await applicant.get(`/spaces/${id}/applications/me`)).body.status).toBe('pending');
    expect((await owner.get(`/spaces/${id}/bans`)).body.items.map((b: { did: string }) => b.did)).toEqual([
      banned,
    ]);
    expect((await t.anonymous.get(`/v1/spaces/${id}/topics/${topic.body.id}`)).body.name).toBe('News');
    expect((await t.anonymous.get(`/v1/spaces/${id}/pages/${page.body.id}`)).body.title).toBe('About');
    expect((await member.get(`/spaces/${id}/viewer`)).body).toMatchObject({
      status: 'member',
      role: 'member',
    });
  });

  it('refuses NUL characters, unknown members and arrays in place of records with 400 and details, storing nothing', async () => {
    const id = await publicSpace(owner, 'application');
    const member = t.caller();
    await addMember(owner, id, member);
    const applicant = t.caller();
    const topic = await owner.post(`/spaces/${id}/topics`, { name: 'News', access: 'public' });
    expectStatus(topic, 201);
    const page = await owner.post(`/spaces/${id}/pages`, { title: 'About', body: 'Hello' });
    expectStatus(page, 201);
    const invite = await owner.post(`/spaces/${id}/my-invite`, { joinModeOverride: 'application' });
    expectStatus(invite, 201);
    const code = invite.body.inviteCode as string;
    const tables = ['spaces', 'space_topics', 'space_pages', 'space_applications', 'space_invites'];
    const counts = async () => Promise.all(tables.map((table) => count(t.dataSource, table)));
    const countsBefore = await counts();
    const before = (await owner.get(`/spaces/${id}`)).body;
    const nul = 'a\u0000b';

    const calls: [string, string, () => Promise<Response>][] = [
      ['create', 'displayName', () => owner.post('/spaces', { displayName: nul })],
      ['create', 'description', () => owner.post('/spaces', { displayName: 'ok', description: nul })],
      ['update', 'displayName', () => owner.put(`/spaces/${id}`, { displayName: nul })],
      ['update', 'description', () => owner.put(`/spaces/${id}`, { description: nul })],
      ['site', 'category', () => owner.put(`/spaces/${id}/site`, { category: nul })],
      [
        'site',
        'links.0.url',
        () => owner.put(`/spaces/${id}/site`, { links: [{ url: `https://x.example/${nul}` }] }),
      ],
      [
        'site',
        'links.0.label',
        () => owner.put(`/spaces/${id}/site`, { links: [{ url: 'https://x.example', label: nul }] }),
      ],
      [
        'settings',
        'questions.0.question',
        () =>
          owner.put(`/spaces/${id}/application-settings`, {
            questions: [{ question: nul, isRequired: true }],
          }),
      ],
      [
        'apply',
        'responses.0.response',
        () =>
          applicant.post(`/spaces/${id}/applications`, { responses: [{ question: 'Why?', response: nul }] }),
      ],
      ['status', 'status', () => member.put(`/spaces/${id}/status`, { status: nul })],
      ['topic+', 'name', () => owner.post(`/spaces/${id}/topics`, { name: nul, access: 'public' })],
      [
        'topic',
        'description',
        () =>
          owner.put(`/spaces/${id}/topics/${topic.body.id}`, {
            name: 'News',
            description: nul,
            access: 'public',
          }),
      ],
      ['page+', 'title', () => owner.post(`/spaces/${id}/pages`, { title: nul, body: 'x' })],
      ['page', 'body', () => owner.put(`/spaces/${id}/pages/${page.body.id}`, { title: 'About', body: nul })],
      ['listing', 'category', () => t.anonymous.get('/v1/spaces?category=a%00b')],
      // Unknown members are refused too, at the top level and inside nested records.
      ['create', 'isPublic', () => owner.post('/spaces', { displayName: 'ok', isPublic: true })],
      ['update', 'joinMode', () => owner.put(`/spaces/${id}`, { displayName: 'x', joinMode: 'open' })],
      [
        'config',
        'extra',
        () => owner.put(`/spaces/${id}/public-config`, { isPublic: true, joinMode: 'open', extra: 1 }),
      ],
      ['invite+', 'extra', () => owner.post(`/spaces/${id}/my-invite`, { maxUses: 5, extra: 1 })],
      [
        'settings',
        'questions.0.extra',
        () =>
          owner.put(`/spaces/${id}/application-settings`, {
            questions: [{ question: 'Q', isRequired: true, extra: 1 }],
          }),
      ],
      [
        'site',
        'links.0.title',
        () => owner.put(`/spaces/${id}/site`, { links: [{ url: 'https://x.example', title: 'T' }] }),
      ],
      [
        'topic+',
        'extra',
        () => owner.post(`/spaces/${id}/topics`, { name: 'Other', access: 'public', extra: 1 }),
      ],
      ['page+', 'extra', () => owner.post(`/spaces/${id}/pages`, { title: 'Other', body: 'x', extra: 1 })],
      // An array where a record belongs would pass the records' own rules empty.
      ['settings', 'questions', () => owner.put(`/spaces/${id}/application-settings`, { questions: [[]] })],
      [
        'settings',
        'questions',
        () =>
          owner.put(`/spaces/${id}/application-settings`, {
            questions: [[{ question: 'Q', isRequired: true }]],
          }),
      ],
      ['apply', 'responses', () => applicant.post(`/spaces/${id}/applications`, { responses: [[]] })],
      ['join code', 'responses', () => applicant.post(`/spaces/join/${code}`, { responses: [[]] })],
      ['site', 'links', () => owner.put(`/spaces/${id}/site`, { links: [[]] })],
    ];
    for (const [name, path, call] of calls) {
      const response = await call();
      if (response.status !== 400) throw new Error(`${name} ${path}: ${response.status} ${response.text}`);
      expectInvalid(response, path);
    }
    expect(await counts()).toEqual(countsBefore);
    expect((await owner.get(`/spaces/${id}`)).body).toEqual(before);
    expect((await member.get(`/spaces/${id}/viewer`)).body.status).toBe('member');
    expect((await applicant.get(`/spaces/${id}/viewer`)).body.status).toBeNull();
    expect((await owner.get(`/spaces/${id}/application-settings`)).body).toEqual({ questions: [] });
    expect((await t.anonymous.get(`/v1/spaces/${id}`)).body).not.toHaveProperty('applicationQuestions');
    expect((await t.anonymous.get(`/v1/spaces/${id}/topics/${topic.body.id}`)).body).toMatchObject({
      name: 'News',
      description: null,
    });
    expect((await t.anonymous.get(`/v1/spaces/${id}/pages/${page.body.id}`)).body.body).toBe('Hello');
  });

  it('a demoted admin loses every admin route at once', async () => {
    const id = await publicSpace(owner, 'closed');
    const admin = t.caller();
    await addMember(owner, id, admin);
    expectStatus(await owner.put(`/spaces/${id}/members/${admin.did}`, { role: 'admin' }), 200);
    expectStatus(await admin.put(`/spaces/${id}/site`, { siteMode: 'posts' }), 200);
    expectStatus(await owner.put(`/spaces/${id}/members/${admin.did}`, { role: 'member' }), 200);
    expectStatus(await admin.put(`/spaces/${id}/site`, { siteMode: 'join' }), 403);
    expectStatus(await admin.post(`/spaces/${id}/my-invite`, {}), 403);
    expectStatus(await admin.get(`/spaces/${id}/bans`), 403);
  });

  it('a deleted space is missing on the public reads and the administration routes too', async () => {
    const id = await publicSpace(owner, 'open');
    expectStatus(await owner.put(`/spaces/${id}/domain`, { domain: 'vanishing' }), 200);
    const topic = await owner.post(`/spaces/${id}/topics`, { name: 'News', access: 'public' });
    const page = await owner.post(`/spaces/${id}/pages`, { title: 'About', slug: 'about', body: 'Hello' });
    expectStatus(topic, 201);
    expectStatus(page, 201);
    const did = (await owner.get(`/spaces/${id}`)).body.did as string;
    expectStatus(await t.anonymous.get(`/v1/spaces/vanishing`), 200);

    expectStatus(await owner.delete(`/spaces/${id}`), 204);

    for (const reference of [id, did, 'vanishing', `space-${id.slice('space_'.length)}`]) {
      for (const path of [
        `/v1/spaces/${reference}`,
        `/v1/spaces/${reference}/topics`,
        `/v1/spaces/${reference}/topics/${topic.body.id}`,
        `/v1/spaces/${reference}/pages`,
        `/v1/spaces/${reference}/pages/${page.body.id}`,
        `/v1/spaces/${reference}/pages/about`,
      ]) {
        const response = await t.anonymous.get(path);
        if (response.status !== 404) throw new Error(`${path}: ${response.status} ${response.text}`);
        expectNotFound(response);
      }
    }
    const listed = await t.anonymous.get('/v1/spaces?limit=100');
    expect(listed.body.items.map((card: { id: string }) => card.id)).not.toContain(id);

    const admin: [string, () => Promise<Response>][] = [
      ['site', () => owner.put(`/spaces/${id}/site`, { siteMode: 'posts' })],
      ['topics', () => owner.get(`/spaces/${id}/topics`)],
      ['topic+', () => owner.post(`/spaces/${id}/topics`, { name: 'Again', access: 'public' })],
      ['topic', () => owner.put(`/spaces/${id}/topics/${topic.body.id}`, { name: 'X', access: 'public' })],
      ['topic-', () => owner.delete(`/spaces/${id}/topics/${topic.body.id}`)],
      ['pages', () => owner.get(`/spaces/${id}/pages`)],
      ['page+', () => owner.post(`/spaces/${id}/pages`, { title: 'Again', body: 'x' })],
      ['page', () => owner.put(`/spaces/${id}/pages/${page.body.id}`, { title: 'X', body: 'y' })],
      ['page-', () => owner.delete(`/spaces/${id}/pages/${page.body.id}`)],
      ['verify', () => owner.post(`/spaces/${id}/domain-verification`, { domain: 'example.com' })],
    ];
    for (const [name, call] of admin) {
      const response = await call();
      if (response.status !== 404) throw new Error(`${name}: ${response.status} ${response.text}`);
      expectNotFound(response);
    }
  });

  it('a space taken private answers the one 404 on every public read, topics and pages included', async () => {
    const id = await publicSpace(owner, 'open');
    expectStatus(await owner.put(`/spaces/${id}/domain`, { domain: 'retreating' }), 200);
    const topic = await owner.post(`/spaces/${id}/topics`, { name: 'News', access: 'public' });
    const page = await owner.post(`/spaces/${id}/pages`, { title: 'About', slug: 'about', body: 'Hello' });
    const did = (await owner.get(`/spaces/${id}`)).body.did as string;
    expectStatus(
      await owner.put(`/spaces/${id}/public-config`, { isPublic: false, joinMode: 'closed' }),
      200,
    );
    for (const reference of [id, did, 'retreating']) {
      for (const path of [
        `/v1/spaces/${reference}`,
        `/v1/spaces/${reference}/topics`,
        `/v1/spaces/${reference}/topics/${topic.body.id}`,
        `/v1/spaces/${reference}/pages`,
        `/v1/spaces/${reference}/pages/${page.body.id}`,
        `/v1/spaces/${reference}/pages/about`,
      ]) {
        // A signed request reads nothing more than an anonymous one on these routes.
        for (const caller of [t.anonymous, owner]) {
          const response = await caller.get(path);
          if (response.status !== 404) throw new Error(`${path}: ${response.status} ${response.text}`);
          expectNotFound(response);
        }
      }
    }
  });

  it('a page serves mentions of public profiles as links and of everyone else as @name text', async () => {
    const id = await publicSpace(owner, 'open');
    const account = async (handle: string, isPublic: boolean): Promise<string> => {
      const person = t.caller();
      const created = await person.post('/users', { handle });
      expectStatus(created, 201);
      if (isPublic) expectStatus(await person.patch('/profile', { isPublic: true }), 200);
      return created.body.id as string;
    };
    const shown = await account('shown-person', true);
    const hidden = await account('hidden-person', false);
    const missing = `identity_${'0'.repeat(32)}`;
    const body =
      `Thanks [@shown](mention:${shown}), [@hidden](mention:${hidden}) and [ghost](mention:${missing}).\n` +
      '[a link](https://example.com/)';
    const page = await owner.post(`/spaces/${id}/pages`, { title: 'Credits', slug: 'credits', body });
    expectStatus(page, 201);
    expect(page.body.body).toBe(body); // stored and shown to admins as written

    const expected = `Thanks [@shown](mention:${shown}), @hidden and @ghost.\n[a link](https://example.com/)`;
    for (const reference of [page.body.id, 'credits']) {
      const read = await t.anonymous.get(`/v1/spaces/${id}/pages/${reference}`);
      expectStatus(read, 200);
      expect(read.body.body).toBe(expected);
      expect(read.text).not.toContain(hidden);
      expect(read.text).not.toContain(missing);
    }
    // Nothing else of the page changes: the listing item is the full page minus its body (and its
    // media: no cover, no inline media here).
    const listed = (await t.anonymous.get(`/v1/spaces/${id}/pages`)).body.items[0];
    const {
      body: _body,
      bodyMedia,
      ...item
    } = (await t.anonymous.get(`/v1/spaces/${id}/pages/credits`)).body;
    expect(bodyMedia).toEqual([]);
    expect(item).toEqual(listed);
  });

  describe('illegal transitions answer their status and change nothing', () => {
    it('applications: a decided application cannot take the other decision; non-application spaces take none', async () => {
      const id = await publicSpace(owner, 'application');
      const approvedApplicant = t.caller();
      const rejectedApplicant = t.caller();
      const approved = (await approvedApplicant.post(`/spaces/${id}/applications`, {})).body.applicationId;
      const rejected = (await rejectedApplicant.post(`/spaces/${id}/applications`, {})).body.applicationId;
      expectStatus(await owner.post(`/applications/${approved}/approve`), 200);
      expectStatus(await owner.post(`/applications/${rejected}/reject`), 200);
      expectStatus(await owner.post(`/applications/${approved}/reject`), 409);
      expectStatus(await owner.post(`/applications/${rejected}/approve`), 409);
      expect((await approvedApplicant.get(`/spaces/${id}/applications/me`)).body.status).toBe('approved');
      expect((await rejectedApplicant.get(`/spaces/${id}/viewer`)).body).toMatchObject({
        status: null,
        role: null,
        canApply: true,
      });
      // An approved applicant is a member: applying again is a conflict.
      expectStatus(await approvedApplicant.post(`/spaces/${id}/applications`, {}), 409);

      for (const mode of ['open', 'closed'] as const) {
        const other = await publicSpace(owner, mode);
        const before = await count(t.dataSource, 'space_applications');
        expectStatus(await t.caller().post(`/spaces/${other}/applications`, {}), 403);
        expect(await count(t.dataSource, 'space_applications')).toBe(before);
      }
    });

    it('joining: only open public spaces admit without an invite', async () => {
      for (const mode of ['closed', 'application'] as const) {
        const id = await publicSpace(owner, mode);
        const person = t.caller();
        expectStatus(await person.post(`/spaces/${id}/join`), 403);
        expect((await person.get(`/spaces/${id}/viewer`)).body.status).toBeNull();
        expect((await owner.get(`/spaces/${id}`)).body.memberCount).toBe(1);
      }
    });

    it('members: kicked may rejoin; banned may not (open, invite, application) until unbanned', async () => {
      const id = await publicSpace(owner, 'open');
      const person = t.caller();
      expectStatus(await person.post(`/spaces/${id}/join`), 200);
      expectStatus(await owner.delete(`/spaces/${id}/members/${person.did}`), 204);
      expectStatus(await owner.delete(`/spaces/${id}/members/${person.did}`), 404);
      expectStatus(await person.post(`/spaces/${id}/join`), 200);
      expectStatus(await owner.post(`/spaces/${id}/members/${person.did}/bans`), 200);
      expect((await person.get(`/spaces/${id}/viewer`)).body).toMatchObject({ status: null, isBanned: true });
      expectStatus(await person.post(`/spaces/${id}/join`), 403);
      const invite = await owner.post(`/spaces/${id}/my-invite`, {});
      expectStatus(await person.post(`/spaces/join/${invite.body.inviteCode}`), 403);
      expectStatus(
        await owner.put(`/spaces/${id}/public-config`, { isPublic: true, joinMode: 'application' }),
        200,
      );
      expectStatus(await person.post(`/spaces/${id}/applications`, {}), 403);
      expect((await owner.get(`/spaces/${id}`)).body.memberCount).toBe(1);
      expect((await invite).body.usesRemaining).toBe(1000);
      expect((await owner.get(`/spaces/${id}/my-invite`)).body.usesRemaining).toBe(1000);

      expectStatus(await owner.delete(`/spaces/${id}/bans/${person.did}`), 204);
      expectStatus(await owner.delete(`/spaces/${id}/bans/${person.did}`), 404);
      expect((await person.get(`/spaces/${id}/viewer`)).body).toMatchObject({
        isBanned: false,
        canApply: true,
      });
      expectStatus(await person.post(`/spaces/${id}/applications`, {}), 201);
    });
  });
});
