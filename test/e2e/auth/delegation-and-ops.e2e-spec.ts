import request from 'supertest';
import { issueCredential, PlatIdentity } from '../../../src/protocol/client';
import {
  formatCreatedAt,
  generateKeySigner,
  multikeyEntry,
  signJws,
  signIdentityOperation,
} from '../../../src/protocol/core';
import { Actor, publish } from '../../support/actors';
import { bootApp, TestApp } from '../../support/app';

/** Bad input at the protocol edge: malformed operations and over-deep delegation. */
describe('operations and delegated credentials (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootApp();
  });

  afterAll(async () => {
    await t.close();
  });

  const ingest = (operations: string[]) =>
    request(t.http).post('/relay/proof/v1/operations').send({ operations });

  function genesisWith(extra: Record<string, unknown>): string {
    const controller = generateKeySigner();
    const operation = {
      version: 1,
      type: 'create',
      authKeys: [multikeyEntry(controller)],
      assertKeys: [],
      controllerKeys: [multikeyEntry(controller)],
      createdAt: formatCreatedAt(new Date()),
    };
    const { jws } = signIdentityOperation(operation as never, controller);
    const [header] = jws.split('.');
    // Re-sign the same header over a payload carrying the extra members (CID header no longer matters:
    // the op must be refused before or at the CID check).
    const decodedHeader = JSON.parse(Buffer.from(header, 'base64url').toString()) as {
      typ: string;
      kid: string;
    };
    return signJws(decodedHeader, { ...operation, ...extra }, controller);
  }

  it('rejects an op carrying a float-encoded number, and stores nothing', async () => {
    const logLength = async () =>
      (await request(t.http).get('/relay/proof/v1/log?limit=1000')).body.entries.length;
    const before = await logLength();
    const response = await ingest([genesisWith({ weight: 0.5 })]);
    expect(response.status).toBe(200);
    expect(response.body.results[0]).toMatchObject({ status: 'rejected' });
    expect(await logLength()).toBe(before);
  });

  it('rejects an op over 64 KiB', async () => {
    const response = await ingest([genesisWith({ padding: 'x'.repeat(70 * 1024) })]);
    expect(response.status).toBe(200);
    expect(response.body.results[0]).toMatchObject({ status: 'rejected' });
    expect(response.body.results[0].error).toMatch(/65536|64|exceeds|large/i);
  });

  it('accepts a delegation chain of 16 credentials and refuses one of 17 (403)', async () => {
    const person = await Actor.create(t);
    expect((await person.signUp('delegator')).status).toBe(201);
    const hops: PlatIdentity[] = [person.identity];
    const apps: Actor[] = [];
    for (let i = 0; i < 17; i += 1) {
      const app = await Actor.create(t);
      apps.push(app);
      hops.push(app.identity);
    }
    const host = t.config.publicHost;
    const att = [{ resource: `account:${person.did}`, action: 'read:profile' }];
    const chain: string[] = [];
    for (let level = 0; level < 17; level += 1) {
      const token = issueCredential(hops[level], {
        audience: hops[level + 1].did,
        host,
        att,
        prf: level === 0 ? [] : [chain[level - 1]],
        expiresInSeconds: 3600 - level,
      }).token;
      chain.push(token);
    }
    const sixteen = await apps[15].get('/v1/profile', { credential: chain[15] });
    expect(sixteen.status).toBe(200);
    expect(sixteen.body.did).toBe(person.did);
    const seventeen = await apps[16].get('/v1/profile', { credential: chain[16] });
    expect(seventeen.status).toBe(403);
  });

  describe('credential verification over HTTP (design.md §4)', () => {
    let person: Actor;
    let middle: Actor;
    let leafApp: Actor;
    const account = (actor: Actor, action: string) => [{ resource: `account:${actor.did}`, action }];

    beforeAll(async () => {
      [person, middle, leafApp] = await Promise.all([Actor.create(t), Actor.create(t), Actor.create(t)]);
      expect((await person.signUp('cred-person')).status).toBe(201);
      expect((await person.patch('/profile', { email: 'person@example.org' })).status).toBe(200);
    });

    const root = (att: { resource: string; action: string }[], expiresInSeconds = 3600) =>
      issueCredential(person.identity, {
        audience: middle.did,
        host: t.config.publicHost,
        att,
        expiresInSeconds,
      }).token;
    const child = (
      parent: string,
      att: { resource: string; action: string }[],
      options: { issuer?: Actor; expiresInSeconds?: number } = {},
    ) =>
      issueCredential((options.issuer ?? middle).identity, {
        audience: leafApp.did,
        host: t.config.publicHost,
        att,
        prf: [parent],
        expiresInSeconds: options.expiresInSeconds ?? 1800,
      }).token;

    it('a narrowed delegation acts for the root issuer with the narrowed scopes', async () => {
      const parent = root(account(person, 'read:profile,read:email'));
      const response = await leafApp.get('/v1/profile', {
        credential: child(parent, account(person, 'read:profile')),
      });
      expect(response.status).toBe(200);
      expect(response.body.did).toBe(person.did);
      expect(response.body.email).toBeUndefined();
      const introspected = await leafApp.get('/v1/credential', {
        credential: child(parent, account(person, 'read:profile')),
      });
      expect(introspected.body).toMatchObject({
        issuer: { did: person.did, handle: 'cred-person' },
        audience: leafApp.did,
        scopes: ['read:profile'],
      });
    });

    it.each([
      [
        'widening the actions',
        () => child(root(account(person, 'read:profile')), account(person, 'read:profile,read:email')),
      ],
      [
        'outliving the parent',
        () =>
          child(root(account(person, 'read:profile'), 600), account(person, 'read:profile'), {
            expiresInSeconds: 1200,
          }),
      ],
      [
        'issued by someone the parent was not addressed to',
        () =>
          child(root(account(person, 'read:profile')), account(person, 'read:profile'), { issuer: leafApp }),
      ],
      ['addressed to another app (aud is not the proof iss)', () => root(account(person, 'read:profile'))],
    ])('a delegation %s is refused (403) on a gated route', async (_label, build) => {
      const response = await leafApp.get('/v1/profile', { credential: build() });
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('E_FORBIDDEN');
    });

    it('a revoked parent breaks the delegated credential', async () => {
      const parent = root(account(person, 'read:profile'));
      const credential = child(parent, account(person, 'read:profile'));
      expect((await leafApp.get('/v1/profile', { credential })).status).toBe(200);
      await person.revoke(parent);
      expect((await leafApp.get('/v1/profile', { credential })).status).toBe(403);
    });

    it('a credential survives the rotation of the key that signed it (historical resolution)', async () => {
      const rotating = await Actor.create(t);
      expect((await rotating.signUp('cred-rotating')).status).toBe(201);
      const app = await Actor.create(t);
      const credential = rotating.grant(app, ['read:profile']);
      const signingKey = rotating.identity.authKey.keyId;
      const added = rotating.identity.addKey(['auth']);
      await publish(t, [added.jws, rotating.identity.removeKey(signingKey).jws]);
      expect((await app.get('/v1/profile', { credential })).status).toBe(200);
      expect((await rotating.get('/v1/profile')).status).toBe(200);
    });
  });
});
