import request from 'supertest';
import { legacyImage, UNKNOWN_MEDIA } from '../../support/media-uploads';
import { OriginIdentities } from '../../../src/protocol/publishing/domain/origin-identities';
import {
  bootSpaces,
  Caller,
  count,
  createSpace,
  expectInvalid,
  expectNotFound,
  expectStatus,
  SpacesTestApp,
} from './support';

describe('legacy spaces: create, read, update, delete, public config, domains (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Caller;
  let stranger: Caller;

  beforeAll(async () => {
    t = await bootSpaces();
    owner = t.caller();
    stranger = t.caller();
  });

  afterAll(async () => {
    await t.close();
  });

  describe('POST /spaces', () => {
    it('creates a closed private space with an origin-signed identity and the creator as owner', async () => {
      const response = await owner.post('/spaces', { displayName: '  Makers  ', description: 'We make' });
      expectStatus(response, 201);
      const body = response.body;
      expect(body.id).toMatch(/^space_[0-9a-f]{32}$/);
      expect(body.did).toMatch(/^did:plat:[2346789acdefhknrtvz]{31}$/);
      // The identity chain was signed by the origin key and ingested into the embedded relay.
      expect(await t.app.get(OriginIdentities).headOf(body.did)).toEqual(expect.any(String));
      expectStatus(await t.anonymous.get(`/relay/proof/v1/identities/${body.did}`), 200);
      expect(body).toMatchObject({
        domain: `space-${body.id.slice('space_'.length)}`,
        displayName: 'Makers',
        description: 'We make',
        avatarId: null,
        bannerId: null,
        backgroundId: null,
        links: [],
        isPublic: false,
        joinMode: 'closed',
        siteMode: 'join',
        subscribeEnabled: false,
        category: null,
        discoveryOptIn: false,
        verifiedDomain: null,
        applicationQuestions: [],
        memberCount: 1,
        role: 'owner',
      });
      expect(Date.parse(body.createdAt)).not.toBeNaN();
      expect(body.lastActivityAt).not.toBeNull();
      const [row] = await t.dataSource.query(
        `SELECT role, status, joined_at FROM space_memberships WHERE member_did = $1`,
        [owner.did],
      );
      expect(row).toMatchObject({ role: 'owner', status: 'active' });
    });

    it('accepts a missing description', async () => {
      const response = await owner.post('/spaces', { displayName: 'Quiet' });
      expectStatus(response, 201);
      expect(response.body.description).toBeNull();
    });

    it('refuses bad bodies with details and stores nothing', async () => {
      const before = await count(t.dataSource, 'spaces');
      expectInvalid(await owner.post('/spaces', {}), 'displayName');
      expectInvalid(await owner.post('/spaces', { displayName: 42 }), 'displayName');
      expectInvalid(await owner.post('/spaces', { displayName: '   ' }), 'displayName');
      expectInvalid(await owner.post('/spaces', { displayName: 'x'.repeat(101) }), 'displayName');
      expectInvalid(
        await owner.post('/spaces', { displayName: 'ok', description: 'x'.repeat(1001) }),
        'description',
      );
      expectInvalid(await owner.post('/spaces', { displayName: 'ok', description: 7 }), 'description');
      expectInvalid(await owner.post('/spaces', { displayName: 'ok', isPublic: true }), 'isPublic');
      const malformed = await request(t.http)
        .post('/spaces')
        .set(await owner.headers('POST', '/spaces'))
        .set('Content-Type', 'application/json')
        .send('{"displayName":');
      expectStatus(malformed, 400);
      expect(await count(t.dataSource, 'spaces')).toBe(before);
    });

    it('needs an authenticated caller with a real request proof', async () => {
      expectStatus(await t.anonymous.post('/spaces', { displayName: 'x' }), 401);
      // A proof bound to another target, or a bare claim of a DID, authenticates no one.
      const misbound = await request(t.http)
        .post('/spaces')
        .set(await owner.headers('POST', '/spaces?x=1'))
        .send({ displayName: 'x' });
      expectStatus(misbound, 401);
      const claimed = await request(t.http)
        .post('/spaces')
        .set('x-test-did', owner.did!)
        .send({ displayName: 'x' });
      expectStatus(claimed, 401);
    });
  });

  describe('GET /spaces/{id}', () => {
    it('shows a private space to its members with their role, and to nobody else', async () => {
      const { id } = await createSpace(owner);
      const mine = await owner.get(`/spaces/${id}`);
      expectStatus(mine, 200);
      expect(mine.body).toMatchObject({ id, role: 'owner', memberCount: 1 });
      expectNotFound(await stranger.get(`/spaces/${id}`));
    });

    it('shows a public space to anyone authenticated, with role null for non-members', async () => {
      const { id } = await createSpace(owner);
      expectStatus(
        await owner.put(`/spaces/${id}/public-config`, { isPublic: true, joinMode: 'closed' }),
        200,
      );
      const seen = await stranger.get(`/spaces/${id}`);
      expectStatus(seen, 200);
      expect(seen.body).toMatchObject({ id, isPublic: true, role: null });
    });

    it('answers the one 404 for unknown, malformed and other-typed ids', async () => {
      const { id } = await createSpace(owner);
      const unknown = `space_${'0'.repeat(32)}`;
      for (const path of [
        `/spaces/${unknown}`,
        '/spaces/space_123',
        `/spaces/${id.toUpperCase()}`,
        `/spaces/${id.replace('space_', 'post_')}`,
        `/spaces/${id.slice('space_'.length)}`,
      ]) {
        expectNotFound(await owner.get(path));
      }
    });
  });

  describe('PUT /spaces/{id}', () => {
    it('changes only the fields named; null clears description and images', async () => {
      const { id } = await createSpace(owner);
      const [avatar, banner, background] = await Promise.all([
        legacyImage(t, owner, 'avatar.png'),
        legacyImage(t, owner, 'banner.png'),
        legacyImage(t, owner, 'background.png'),
      ]);
      const first = await owner.put(`/spaces/${id}`, {
        id,
        displayName: 'Renamed',
        avatarId: avatar,
        bannerId: banner,
        backgroundId: background,
      });
      expectStatus(first, 200);
      expect(first.body).toMatchObject({
        displayName: 'Renamed',
        description: 'A place to make things',
        avatarId: avatar,
        bannerId: banner,
      });
      const second = await owner.put(`/spaces/${id}`, { description: null, avatarId: null });
      expectStatus(second, 200);
      expect(second.body).toMatchObject({
        displayName: 'Renamed',
        description: null,
        avatarId: null,
        bannerId: banner,
      });
      expect((await owner.get(`/spaces/${id}`)).body).toMatchObject({
        displayName: 'Renamed',
        bannerId: banner,
      });
    });

    it('takes only ready images of the caller for avatarId, bannerId, backgroundId (design.md §11 "Use")', async () => {
      const { id } = await createSpace(owner, 'Images');
      const mine = await legacyImage(t, owner, 'mine.png');
      const theirs = await legacyImage(t, stranger, 'theirs.png');
      const pending = (await owner.post('/media', { filename: 'later.png', contentType: 'image/png' })).body
        .media.id as string;
      const refused = await owner.put(`/spaces/${id}`, {
        avatarId: theirs,
        bannerId: pending,
        backgroundId: UNKNOWN_MEDIA,
      });
      expectStatus(refused, 400);
      expect(refused.body.details).toEqual([
        { path: 'avatarId', message: `${theirs} is not one of your uploads` },
        { path: 'bannerId', message: `${pending} is not ready (pending)` },
        { path: 'backgroundId', message: `${UNKNOWN_MEDIA} is not one of your uploads` },
      ]);
      expectInvalid(
        await owner.put(`/spaces/${id}`, { displayName: 'Changed', avatarId: theirs }),
        'avatarId',
      );
      expect((await owner.get(`/spaces/${id}`)).body).toMatchObject({
        displayName: 'Images',
        avatarId: null,
      });
      expectStatus(await owner.put(`/spaces/${id}`, { avatarId: mine }), 200);
    });

    it('refuses an empty change, a mismatched id and bad values, storing nothing', async () => {
      const { id } = await createSpace(owner, 'Before');
      expectStatus(await owner.put(`/spaces/${id}`, {}), 400);
      expectStatus(await owner.put(`/spaces/${id}`, { id }), 400);
      const other = await createSpace(owner);
      expectInvalid(await owner.put(`/spaces/${id}`, { id: other.id, displayName: 'After' }), 'id');
      expectInvalid(await owner.put(`/spaces/${id}`, { avatarId: 'media_nope' }), 'avatarId');
      expectInvalid(await owner.put(`/spaces/${id}`, { bannerId: 12 }), 'bannerId');
      expectInvalid(await owner.put(`/spaces/${id}`, { displayName: '' }), 'displayName');
      expectInvalid(await owner.put(`/spaces/${id}`, { displayName: null }), 'displayName');
      expectInvalid(await owner.put(`/spaces/${id}`, { displayName: 'x'.repeat(101) }), 'displayName');
      expectInvalid(await owner.put(`/spaces/${id}`, { joinMode: 'open' }), 'joinMode');
      expect((await owner.get(`/spaces/${id}`)).body.displayName).toBe('Before');
    });

    it('is for admins: 403 for a member of a public space, 404 for a stranger of a private one', async () => {
      const { id } = await createSpace(owner);
      expectNotFound(await stranger.put(`/spaces/${id}`, { displayName: 'Mine now' }));
      expectStatus(await owner.put(`/spaces/${id}/public-config`, { isPublic: true, joinMode: 'open' }), 200);
      expectStatus(await stranger.put(`/spaces/${id}`, { displayName: 'Mine now' }), 403);
      expectStatus(await stranger.post(`/spaces/${id}/join`), 200);
      expectStatus(await stranger.put(`/spaces/${id}`, { displayName: 'Mine now' }), 403);
      expect((await owner.get(`/spaces/${id}`)).body.displayName).toBe('Makers');
    });
  });

  describe('PUT /spaces/{id}/public-config', () => {
    it('moves closed → open (public) → application → closed', async () => {
      const { id } = await createSpace(owner);
      for (const config of [
        { isPublic: true, joinMode: 'open' },
        { isPublic: true, joinMode: 'application' },
        { isPublic: false, joinMode: 'application' },
        { isPublic: false, joinMode: 'closed' },
      ]) {
        const response = await owner.put(`/spaces/${id}/public-config`, { id, ...config });
        expectStatus(response, 200);
        expect(response.body).toMatchObject(config);
      }
    });

    it('refuses open without isPublic, unknown modes and wrong types, storing nothing', async () => {
      const { id } = await createSpace(owner);
      expectInvalid(
        await owner.put(`/spaces/${id}/public-config`, { isPublic: false, joinMode: 'open' }),
        'joinMode',
      );
      expectInvalid(
        await owner.put(`/spaces/${id}/public-config`, { isPublic: true, joinMode: 'paid' }),
        'joinMode',
      );
      expectInvalid(
        await owner.put(`/spaces/${id}/public-config`, { isPublic: true, joinMode: 'OPEN' }),
        'joinMode',
      );
      expectInvalid(
        await owner.put(`/spaces/${id}/public-config`, { isPublic: 'true', joinMode: 'open' }),
        'isPublic',
      );
      expectInvalid(await owner.put(`/spaces/${id}/public-config`, { joinMode: 'closed' }), 'isPublic');
      expectInvalid(
        await owner.put(`/spaces/${id}/public-config`, { id: 'space_x', isPublic: true, joinMode: 'open' }),
        'id',
      );
      expect((await owner.get(`/spaces/${id}`)).body).toMatchObject({ isPublic: false, joinMode: 'closed' });
    });

    it('is for admins', async () => {
      const { id } = await createSpace(owner);
      expectNotFound(await stranger.put(`/spaces/${id}/public-config`, { isPublic: true, joinMode: 'open' }));
      expectStatus(
        await owner.put(`/spaces/${id}/public-config`, { isPublic: true, joinMode: 'closed' }),
        200,
      );
      expectStatus(
        await stranger.put(`/spaces/${id}/public-config`, { isPublic: true, joinMode: 'open' }),
        403,
      );
    });
  });

  describe('domains', () => {
    it('answers available, taken and invalid', async () => {
      const { id } = await createSpace(owner);
      const status = async (domain: string) =>
        (await stranger.get(`/spaces/domain/${encodeURIComponent(domain)}/status`)).body.status;
      expect(await status('woodworkers')).toBe('available');
      expectStatus(await owner.put(`/spaces/${id}/domain`, { id, domain: 'woodworkers' }), 200);
      expect(await status('woodworkers')).toBe('taken');
      expect(await status('www')).toBe('taken');
      expect(await status(`space-${id.slice('space_'.length)}`)).toBe('invalid');
      for (const bad of [
        'ab',
        'x'.repeat(64),
        'Wood',
        'wood_workers',
        '-wood',
        'wood-',
        'wood.workers',
        'wööd',
      ]) {
        expect(await status(bad)).toBe('invalid');
      }
      expect(await status('abc')).toBe('available');
      expect(await status('x'.repeat(63))).toBe('available');
    });

    it('claims a domain, releases the previous one, and treats claiming the current one as done', async () => {
      const { id } = await createSpace(owner);
      const claimed = await owner.put(`/spaces/${id}/domain`, { domain: 'potters' });
      expectStatus(claimed, 200);
      expect(claimed.body.domain).toBe('potters');
      expectStatus(await owner.put(`/spaces/${id}/domain`, { domain: 'potters' }), 200);
      expectStatus(await owner.put(`/spaces/${id}/domain`, { domain: 'ceramicists' }), 200);
      expect((await owner.get(`/spaces/domain/potters/status`)).body.status).toBe('available');
      const other = await createSpace(owner);
      expectStatus(await owner.put(`/spaces/${other.id}/domain`, { domain: 'potters' }), 200);
    });

    it('refuses taken (409), reserved (409) and invalid (400) domains, storing nothing', async () => {
      const first = await createSpace(owner);
      const second = await createSpace(owner);
      expectStatus(await owner.put(`/spaces/${first.id}/domain`, { domain: 'glassblowers' }), 200);
      expectStatus(await owner.put(`/spaces/${second.id}/domain`, { domain: 'glassblowers' }), 409);
      expectStatus(await owner.put(`/spaces/${second.id}/domain`, { domain: 'api' }), 409);
      expectInvalid(await owner.put(`/spaces/${second.id}/domain`, { domain: 'Glass' }), 'domain');
      expectInvalid(await owner.put(`/spaces/${second.id}/domain`, { domain: 'gl' }), 'domain');
      expectInvalid(await owner.put(`/spaces/${second.id}/domain`, { domain: 'g'.repeat(64) }), 'domain');
      expectInvalid(await owner.put(`/spaces/${second.id}/domain`, { domain: 5 }), 'domain');
      expectInvalid(
        await owner.put(`/spaces/${second.id}/domain`, { domain: `space-${'a'.repeat(32)}` }),
        'domain',
      );
      expectInvalid(await owner.put(`/spaces/${second.id}/domain`, { id: first.id, domain: 'glass' }), 'id');
      const body = (await owner.get(`/spaces/${second.id}`)).body;
      expect(body.domain).toBe(`space-${second.id.slice('space_'.length)}`);
    });

    it('is for admins', async () => {
      const { id } = await createSpace(owner);
      expectNotFound(await stranger.put(`/spaces/${id}/domain`, { domain: 'hijack' }));
      expectStatus(
        await owner.put(`/spaces/${id}/public-config`, { isPublic: true, joinMode: 'closed' }),
        200,
      );
      expectStatus(await stranger.put(`/spaces/${id}/domain`, { domain: 'hijack' }), 403);
      expect((await owner.get('/spaces/domain/hijack/status')).body.status).toBe('available');
    });
  });

  describe('DELETE /spaces/{id}', () => {
    it('is for admins', async () => {
      const { id } = await createSpace(owner);
      expectNotFound(await stranger.delete(`/spaces/${id}`));
      expectStatus(await owner.put(`/spaces/${id}/public-config`, { isPublic: true, joinMode: 'open' }), 200);
      expectStatus(await stranger.delete(`/spaces/${id}`), 403);
      expectStatus(await stranger.post(`/spaces/${id}/join`), 200);
      expectStatus(await stranger.delete(`/spaces/${id}`), 403);
      expectStatus(await owner.get(`/spaces/${id}`), 200);
    });

    it('soft-deletes: every route then answers the one 404, and the domain is free again', async () => {
      const { id } = await createSpace(owner);
      expectStatus(
        await owner.put(`/spaces/${id}/public-config`, { isPublic: true, joinMode: 'application' }),
        200,
      );
      expectStatus(await owner.put(`/spaces/${id}/domain`, { domain: 'doomed' }), 200);
      const invite = await owner.post(`/spaces/${id}/my-invite`, {});
      expectStatus(invite, 201);
      const applicant = t.caller();
      const application = await applicant.post(`/spaces/${id}/applications`, {});
      expectStatus(application, 201);

      expectStatus(await owner.delete(`/spaces/${id}`), 204);
      const [row] = await t.dataSource.query('SELECT deleted_at FROM spaces WHERE id = $1', [
        id.slice('space_'.length).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5'),
      ]);
      expect(row.deleted_at).not.toBeNull();

      const did = applicant.did!;
      const appId = application.body.applicationId;
      const code = invite.body.inviteCode;
      const calls: [string, () => Promise<import('supertest').Response>][] = [
        ['get', () => owner.get(`/spaces/${id}`)],
        ['put', () => owner.put(`/spaces/${id}`, { displayName: 'Back' })],
        ['delete', () => owner.delete(`/spaces/${id}`)],
        ['config', () => owner.put(`/spaces/${id}/public-config`, { isPublic: true, joinMode: 'open' })],
        ['domain', () => owner.put(`/spaces/${id}/domain`, { domain: 'back' })],
        ['invite+', () => owner.post(`/spaces/${id}/my-invite`, {})],
        ['invite', () => owner.get(`/spaces/${id}/my-invite`)],
        ['invite-', () => owner.delete(`/spaces/${id}/my-invite`)],
        ['preview', () => stranger.get(`/spaces/invites/${code}`)],
        ['join code', () => stranger.post(`/spaces/join/${code}`)],
        ['join', () => stranger.post(`/spaces/${id}/join`)],
        ['apply', () => stranger.post(`/spaces/${id}/applications`, {})],
        ['mine', () => applicant.get(`/spaces/${id}/applications/me`)],
        ['list apps', () => owner.get(`/spaces/${id}/applications`)],
        ['approve', () => owner.post(`/applications/${appId}/approve`)],
        ['reject', () => owner.post(`/applications/${appId}/reject`)],
        ['settings', () => owner.get(`/spaces/${id}/application-settings`)],
        ['settings+', () => owner.put(`/spaces/${id}/application-settings`, { questions: [] })],
        ['members', () => owner.get(`/spaces/${id}/members`)],
        ['role', () => owner.put(`/spaces/${id}/members/${did}`, { role: 'admin' })],
        ['kick', () => owner.delete(`/spaces/${id}/members/${did}`)],
        ['ban', () => owner.post(`/spaces/${id}/members/${did}/bans`)],
        ['bans', () => owner.get(`/spaces/${id}/bans`)],
        ['unban', () => owner.delete(`/spaces/${id}/bans/${did}`)],
        ['leave', () => owner.delete(`/spaces/${id}/membership`)],
        ['viewer', () => owner.get(`/spaces/${id}/viewer`)],
        ['status', () => owner.put(`/spaces/${id}/status`, { status: 'hi' })],
      ];
      for (const [name, call] of calls) {
        const response = await call();
        if (response.status !== 404) throw new Error(`${name}: ${response.status} ${response.text}`);
        expectNotFound(response);
      }
      expect((await owner.get('/spaces/domain/doomed/status')).body.status).toBe('available');
      const reuse = await createSpace(owner);
      expectStatus(await owner.put(`/spaces/${reuse.id}/domain`, { domain: 'doomed' }), 200);
    });
  });
});
