import request from 'supertest';
import { DataSource } from 'typeorm';
import { issueCredential } from '../../../src/protocol/client';
import { Actor } from '../../support/actors';
import { bootApp, TestApp } from '../../support/app';

/** GET /v1/credential (design.md §4) and the 503 when the revocation set cannot answer (§3). */
describe('credential record and revocation outage (e2e)', () => {
  let t: TestApp;
  let alice: Actor;
  let app: Actor;
  let stranger: Actor;
  let publicSpace: { id: string; did: string; domain: string };
  let privateSpace: { id: string; did: string; domain: string };
  let foreignPrivate: { id: string; did: string; domain: string };

  beforeAll(async () => {
    t = await bootApp();
    [alice, app, stranger] = await Promise.all([Actor.create(t), Actor.create(t), Actor.create(t)]);
    expect((await alice.signUp('record-alice')).status).toBe(201);
    const create = async (owner: Actor, name: string) =>
      (await owner.post('/spaces', { displayName: name, description: 'd' })).body as {
        id: string;
        did: string;
        domain: string;
      };
    publicSpace = await create(stranger, 'Public');
    expect(
      (await stranger.put(`/spaces/${publicSpace.id}/public-config`, { isPublic: true, joinMode: 'open' }))
        .status,
    ).toBe(200);
    privateSpace = await create(alice, 'Mine');
    foreignPrivate = await create(stranger, 'Hidden');
  });

  afterAll(async () => {
    await t.close();
  });

  it('answers exactly {cid, issuer, audience, host, scopes, spaces, issuedAt, expiresAt}', async () => {
    const issued = issueCredential(alice.identity, {
      audience: app.did,
      host: t.config.publicHost,
      scopes: ['write:posts', 'read:email', 'read:posts'],
      spaces: ['*'],
      expiresInSeconds: 3600,
    });
    const response = await app.get('/v1/credential', { credential: issued.token });
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toEqual({
      cid: issued.cid,
      issuer: { did: alice.did, handle: 'record-alice' },
      audience: app.did,
      host: t.config.publicHost,
      scopes: ['read:email', 'read:posts', 'write:posts'],
      spaces: 'all',
      issuedAt: new Date(issued.payload.iat * 1000).toISOString(),
      expiresAt: new Date(issued.payload.exp * 1000).toISOString(),
    });
  });

  it('lists named spaces as {id, did, domain}, revealing no space hidden from the issuer', async () => {
    const unknownDid = 'did:plat:2222222222222222222222222222222';
    const credential = alice.grant(
      app,
      ['read:posts'],
      [publicSpace.did, privateSpace.did, foreignPrivate.did, unknownDid],
    );
    const response = await app.get('/v1/credential', { credential });
    expect(response.status).toBe(200);
    const byDid = new Map(
      (response.body.spaces as { id: string | null; did: string; domain: string | null }[]).map((entry) => [
        entry.did,
        entry,
      ]),
    );
    expect(byDid.size).toBe(4);
    expect(byDid.get(publicSpace.did)).toEqual({
      id: publicSpace.id,
      did: publicSpace.did,
      domain: publicSpace.domain,
    });
    expect(byDid.get(privateSpace.did)).toEqual({
      id: privateSpace.id,
      did: privateSpace.did,
      domain: privateSpace.domain,
    });
    expect(byDid.get(foreignPrivate.did)).toEqual({ id: null, did: foreignPrivate.did, domain: null });
    expect(byDid.get(unknownDid)).toEqual({ id: null, did: unknownDid, domain: null });
  });

  it('a revocation set that cannot answer is 503 E_SERVICE_UNAVAILABLE, never a pass', async () => {
    const credential = alice.grant(app, ['read:profile', 'read:posts']);
    expect((await app.get('/v1/profile', { credential })).status).toBe(200);
    // an optional-auth route (the posts routes are not built yet): the invite preview
    const invite = (await stranger.post(`/spaces/${publicSpace.id}/my-invite`, {})).body.inviteCode as string;
    expect((await app.get(`/spaces/invites/${invite}`, { credential })).status).toBe(200);
    const dataSource = t.app.get(DataSource);
    await dataSource.query('ALTER TABLE relay_revocations RENAME TO relay_revocations_away');
    try {
      for (const path of ['/v1/profile', '/v1/credential', `/spaces/invites/${invite}`]) {
        const response = await app.get(path, { credential });
        expect({ path, status: response.status }).toEqual({ path, status: 503 });
        expect(response.body.code).toBe('E_SERVICE_UNAVAILABLE');
        expect(response.headers['retry-after']).toBeUndefined();
      }
      // A bare identity proof does not consult the revocation set.
      expect((await alice.get('/v1/profile')).status).toBe(200);
    } finally {
      await dataSource.query('ALTER TABLE relay_revocations_away RENAME TO relay_revocations');
    }
    expect((await app.get('/v1/profile', { credential })).status).toBe(200);
  });

  it('X-Credential without Authorization is 401 on a gated route', async () => {
    const credential = alice.grant(app, ['read:profile']);
    const response = await request(t.http).get('/v1/profile').set('X-Credential', credential);
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('E_UNAUTHORIZED');
  });
});
