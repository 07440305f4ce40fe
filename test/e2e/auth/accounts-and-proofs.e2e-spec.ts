import request from 'supertest';
import { generateKeySigner } from '../../../src/protocol/core';
import { issueCredential, signRequestProof } from '../../../src/protocol/client';
import { Actor, publish } from '../../support/actors';
import { bootApp, TestApp } from '../../support/app';

const NOT_FOUND = '{"code":"E_NOT_FOUND","message":"Not found"}';

describe('accounts, request proofs and credentials (e2e)', () => {
  let t: TestApp;
  let alice: Actor;
  let app: Actor;

  beforeAll(async () => {
    t = await bootApp();
    alice = await Actor.create(t);
    app = await Actor.create(t);
    expect((await alice.signUp('alice', 'Alice')).status).toBe(201);
  });

  afterAll(async () => {
    await t.close();
  });

  describe('accounts (design.md §2)', () => {
    it('POST /users without Authorization is 401', async () => {
      const response = await request(t.http).post('/users').send({ handle: 'nobody' });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ code: 'E_UNAUTHORIZED', message: 'Authorization required' });
    });

    it('claims an account and answers the public profile', async () => {
      const bob = await Actor.create(t);
      const response = await bob.signUp('bob', 'Bob');
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        did: bob.did,
        handle: 'bob',
        displayName: 'Bob',
        bio: null,
        links: [],
      });
      expect(response.body.id).toMatch(/^identity_[0-9a-f]{32}$/);
      expect(response.body.protocol.headOpCid).toBe(bob.identity.headCid);
      expect(response.body.email).toBeUndefined();
    });

    it.each(['a-b', '0'.repeat(30)])('accepts the handle %j at the edges of the pattern', async (handle) => {
      const erin = await Actor.create(t);
      const response = await erin.signUp(handle);
      expect(response.status).toBe(201);
      expect(response.body.handle).toBe(handle);
    });

    it('refuses a second account for the same DID (409)', async () => {
      const response = await alice.signUp('alice-two');
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ code: 'E_CONFLICT', message: 'DID already registered' });
    });

    it('refuses a handle taken in another case (409)', async () => {
      const carol = await Actor.create(t);
      const response = await carol.signUp('ALICE');
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ code: 'E_CONFLICT', message: 'Handle taken' });
    });

    it.each([
      [{ handle: 'a' }, 'handle'],
      [{ handle: '-abc' }, 'handle'],
      [{ handle: 'abc_def' }, 'handle'],
      [{ handle: 'ab' }, 'handle'],
      [{ handle: 'abc-' }, 'handle'],
      [{ handle: 'a'.repeat(31) }, 'handle'],
      [{ handle: 'abc\n' }, 'handle'],
      [{ handle: 42 }, 'handle'],
      [{ handle: 'valid-one', admin: true }, 'admin'],
      [{ handle: 'valid-two', displayName: 'x'.repeat(101) }, 'displayName'],
      [{ handle: 'valid-three', displayName: 'a\u0000b' }, 'displayName'],
    ])('answers %j with 400 and stores nothing', async (body, path) => {
      const dave = await Actor.create(t);
      const response = await dave.post('/users', body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('E_INVALID_REQUEST');
      expect(response.body.details.map((detail: { path: string }) => detail.path)).toContain(path);
      expect((await dave.get('/v1/profile')).text).toBe(NOT_FOUND);
    });

    it('a refused profile change (handle taken) publishes nothing', async () => {
      const gina = await Actor.create(t);
      expect((await gina.signUp('gina')).status).toBe(201);
      const chains = async () =>
        (await request(t.http).get('/relay/proof/v1/log?limit=1000')).body.entries.length;
      const before = await chains();
      const refused = await gina.patch('/profile', { handle: 'alice', isPublic: true });
      expect(refused.status).toBe(409);
      expect(await chains()).toBe(before);
      const own = await gina.get('/v1/profile');
      expect(own.body).toMatchObject({ handle: 'gina', isPublic: false });
      expect(own.body.protocol.profile).toBeUndefined();
      expect((await request(t.http).get('/v1/users/gina')).status).toBe(404);
    });

    it('GET /v1/profile with a bare identity proof includes email', async () => {
      expect((await alice.patch('/profile', { email: 'alice@example.org', bio: 'hi' })).status).toBe(200);
      const response = await alice.get('/v1/profile');
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        did: alice.did,
        handle: 'alice',
        bio: 'hi',
        email: 'alice@example.org',
        isPublic: false,
      });
    });

    it.each([
      [{ handle: null }, 'handle'],
      [{ isPublic: null }, 'isPublic'],
      [{ links: null }, 'links'],
      [{ links: [null] }, 'links.0'],
      [{ links: [[]] }, 'links'],
      [{ links: [{ url: 'javascript:alert(1)' }] }, 'links.0.url'],
      [{ handle: 'Bad_Handle' }, 'handle'],
      [{ email: 'not-an-address' }, 'email'],
      [{ displayName: 42 }, 'displayName'],
      [{ bio: 'ok', isAdmin: true }, 'isAdmin'],
    ])('PATCH /profile %j is 400 and changes nothing', async (body, path) => {
      const hank = await Actor.create(t);
      expect((await hank.signUp(`hank-${hank.did.slice(-8)}`)).status).toBe(201);
      const before = (await hank.get('/v1/profile')).body;
      const response = await hank.patch('/profile', body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('E_INVALID_REQUEST');
      expect(response.body.details.map((detail: { path: string }) => detail.path)).toContain(path);
      expect((await hank.get('/v1/profile')).body).toEqual(before);
    });

    it('PATCH /profile sets and clears the optional email; null clears the nullable members', async () => {
      const ivy = await Actor.create(t);
      expect((await ivy.signUp('ivy', 'Ivy')).status).toBe(201);
      expect((await ivy.get('/v1/profile')).body.email).toBeNull();
      const set = await ivy.patch('/profile', { email: 'ivy@example.org', bio: 'b' });
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({ email: 'ivy@example.org', bio: 'b', displayName: 'Ivy' });
      const cleared = await ivy.patch('/profile', { email: null, bio: null, displayName: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({ email: null, bio: null, displayName: null, handle: 'ivy' });
    });

    it.each([
      [{ bio: 'x\u0000' }, 'bio'],
      [{ displayName: '\u0000' }, 'displayName'],
      [{ links: [{ url: 'https://a.example', label: 'x\u0000' }] }, 'links.0.label'],
      [{ links: [{ url: 'https://a.example', description: '\u0000' }] }, 'links.0.description'],
    ])(
      'PATCH /profile %j (NUL, which PostgreSQL cannot store) is 400 and changes nothing',
      async (body, path) => {
        const before = (await alice.get('/v1/profile')).body;
        const response = await alice.patch('/profile', body);
        expect(response.status).toBe(400);
        expect(response.body.details.map((detail: { path: string }) => detail.path)).toContain(path);
        expect((await alice.get('/v1/profile')).body).toEqual(before);
      },
    );

    it('PATCH /profile naming no field is 400', async () => {
      const response = await alice.patch('/profile', {});
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        code: 'E_INVALID_REQUEST',
        message: 'Invalid request',
        details: [{ path: '', message: 'Name at least one field to change' }],
      });
    });

    it('a private profile is the same 404 as a missing one; public once opted in, with its content chain', async () => {
      const paths = ['/v1/users/alice', `/v1/users/${alice.did}`];
      for (const path of paths) expect((await request(t.http).get(path)).text).toBe(NOT_FOUND);
      const updated = await alice.patch('/profile', {
        isPublic: true,
        links: [{ url: 'https://alice.example', label: 'Site' }],
      });
      expect(updated.status).toBe(200);
      const contentId = updated.body.protocol.profile.contentId;
      for (const path of [...paths, '/v1/users/ALICE', `/v1/users/${updated.body.id}`]) {
        const response = await request(t.http).get(path);
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({
          did: alice.did,
          handle: 'alice',
          links: [{ url: 'https://alice.example', label: 'Site', description: null }],
        });
        expect(response.body.email).toBeUndefined();
      }
      expect((await request(t.http).get(`/relay/proof/v1/content/${contentId}`)).status).toBe(200);
    });

    it.each([
      '/v1/users/nobody-here',
      '/v1/users/identity_zz',
      '/v1/users/identity_0190f1a2b3c4d5e6f708192a3b4c5d6e',
      '/v1/users/did:plat:2222222222222222222222222222222',
      '/v1/users/%27%20OR%201=1',
    ])('%s is the constant 404', async (path) => {
      const response = await request(t.http).get(path);
      expect(response.status).toBe(404);
      expect(response.text).toBe(NOT_FOUND);
    });
  });

  describe('request proofs (design.md §3)', () => {
    it('binds the path and query byte for byte (401 on any change)', async () => {
      expect((await alice.get('/v1/profile?x=1', { signedTarget: '/v1/profile' })).status).toBe(401);
      expect((await alice.get('/v1/profile', { signedTarget: '/v1/profile?x=1' })).status).toBe(401);
      expect((await alice.get('/v1/profile', { signedMethod: 'POST' })).status).toBe(401);
      const ok = await alice.get('/v1/profile');
      expect(ok.status).toBe(200);
    });

    it('answers a replayed write jti with 409, and a refused request does not use the jti up', async () => {
      const jti = 'replay-test-0123456789';
      const refused = await alice.patch('/profile', { bio: 'x' }, { jti, signedTarget: '/elsewhere' });
      expect(refused.status).toBe(401);
      expect((await alice.patch('/profile', { bio: 'first' }, { jti })).status).toBe(200);
      const replay = await alice.patch('/profile', { bio: 'second' }, { jti });
      expect(replay.status).toBe(409);
      expect(replay.body).toEqual({ code: 'E_CONFLICT', message: 'Replayed request' });
      expect((await alice.get('/v1/profile')).body.bio).toBe('first');
    });

    it('refuses a write without jti (401)', async () => {
      expect((await alice.patch('/profile', { bio: 'y' }, { jti: false })).status).toBe(401);
    });

    it('refuses a write signed by a controller-only key (403) but verifies its reads', async () => {
      const erin = await Actor.create(t);
      await erin.signUp('erin');
      const exit = erin.identity.addKey(['controller']);
      await publish(t, [exit.jws]);
      const identity = {
        did: erin.did,
        authKey: exit.key as ReturnType<typeof generateKeySigner> & { privateKey: Uint8Array },
      };
      const sign = (method: string, target: string) =>
        signRequestProof({ identity, audience: t.config.publicHost, method, target }).authorization;
      const write = await request(t.http)
        .patch('/profile')
        .set('Authorization', sign('PATCH', '/profile'))
        .send({ bio: 'z' });
      expect(write.status).toBe(403);
      expect(write.body.code).toBe('E_FORBIDDEN');
      const read = await request(t.http).get('/v1/profile').set('Authorization', sign('GET', '/v1/profile'));
      expect(read.status).toBe(200);
    });

    it('stops verifying a removed key at once', async () => {
      const frank = await Actor.create(t);
      await frank.signUp('frank');
      const oldKey = frank.identity.authKey;
      const added = frank.identity.addKey(['auth']);
      await publish(t, [added.jws]);
      const old = { did: frank.did, authKey: oldKey };
      const sign = () =>
        signRequestProof({
          identity: old,
          audience: t.config.publicHost,
          method: 'GET',
          target: '/v1/profile',
        }).authorization;
      expect((await request(t.http).get('/v1/profile').set('Authorization', sign())).status).toBe(200);
      await publish(t, [frank.identity.removeKey(oldKey.keyId).jws]);
      expect((await request(t.http).get('/v1/profile').set('Authorization', sign())).status).toBe(401);
      expect((await frank.get('/v1/profile')).status).toBe(200);
    });

    it('refuses an identity the relay does not know (401)', async () => {
      const ghost = await Actor.create(t);
      const stranger = { did: 'did:plat:2222222222222222222222222222222', authKey: ghost.identity.authKey };
      const authorization = signRequestProof({
        identity: stranger,
        audience: t.config.publicHost,
        method: 'GET',
        target: '/v1/profile',
      }).authorization;
      expect((await request(t.http).get('/v1/profile').set('Authorization', authorization)).status).toBe(401);
    });
  });

  describe('credentials (design.md §4)', () => {
    it('lets an app read the granting person’s profile, without email unless granted', async () => {
      const withoutEmail = await app.get('/v1/profile', { credential: alice.grant(app, ['read:profile']) });
      expect(withoutEmail.status).toBe(200);
      expect(withoutEmail.body.did).toBe(alice.did);
      expect(withoutEmail.body.email).toBeUndefined();
      const withEmail = await app.get('/v1/profile', {
        credential: alice.grant(app, ['read:profile', 'read:email']),
      });
      expect(withEmail.body.email).toBe('alice@example.org');
    });

    it('refuses a credential without the scope, for another app, another host, expired or revoked (403)', async () => {
      const other = await Actor.create(t);
      const cases = [
        alice.grant(app, ['read:posts']),
        alice.grant(other, ['read:profile']),
        issueCredential(alice.identity, {
          audience: app.did,
          host: 'elsewhere.example',
          scopes: ['read:profile'],
        }).token,
        issueCredential(alice.identity, {
          audience: app.did,
          host: t.config.publicHost,
          scopes: ['read:profile'],
          clock: () => new Date(Date.now() - 3_600_000),
          expiresInSeconds: 60,
        }).token,
      ];
      for (const credential of cases) {
        const response = await app.get('/v1/profile', { credential });
        expect(response.status).toBe(403);
        expect(response.body.code).toBe('E_FORBIDDEN');
      }
      const revoked = alice.grant(app, ['read:profile']);
      expect((await app.get('/v1/profile', { credential: revoked })).status).toBe(200);
      await alice.revoke(revoked);
      expect((await app.get('/v1/profile', { credential: revoked })).status).toBe(403);
    });

    it('requires ath to bind the credential (401)', async () => {
      const credential = alice.grant(app, ['read:profile']);
      const proof = app.headers('GET', '/v1/profile');
      const response = await request(t.http).get('/v1/profile').set(proof).set('X-Credential', credential);
      expect(response.status).toBe(401);
    });

    it('refuses a credential on a bare-identity route (403)', async () => {
      const credential = alice.grant(app, ['read:profile']);
      expect((await app.patch('/profile', { bio: 'via app' }, { credential })).status).toBe(403);
    });

    it('GET /v1/credential describes the presented credential', async () => {
      const credential = alice.grant(app, ['read:posts', 'read:profile'], ['*']);
      const response = await app.get('/v1/credential', { credential });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        issuer: { did: alice.did, handle: 'alice' },
        audience: app.did,
        host: t.config.publicHost,
        scopes: ['read:profile', 'read:posts'],
        spaces: 'all',
      });
      expect(response.body.cid).toMatch(/^bafyrei/);
      expect(Date.parse(response.body.expiresAt)).toBeGreaterThan(Date.parse(response.body.issuedAt));
      expect((await app.get('/v1/credential')).status).toBe(401);
      expect((await request(t.http).get('/v1/credential')).status).toBe(401);
    });
  });
});
