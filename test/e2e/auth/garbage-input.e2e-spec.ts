import request from 'supertest';
import { createCredential, PUBLIC_AUDIENCE } from '../../../src/protocol/core';
import { Actor } from '../../support/actors';
import { bootApp, TestApp } from '../../support/app';

const b64 = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** No input makes the service answer 500: malformed proofs are 401, malformed credentials 403. */
describe('malformed authentication input (e2e)', () => {
  let t: TestApp;
  let app: Actor;

  beforeAll(async () => {
    t = await bootApp();
    app = await Actor.create(t);
    await app.signUp('garbage-app');
  });

  afterAll(async () => {
    await t.close();
  });

  const proofs = [
    'PLAT',
    'PLAT ',
    'PLAT a.b.c',
    'PLAT ...',
    'PLAT e30.e30.',
    `PLAT ${b64({ alg: 'EdDSA', typ: 'JWT', kid: 123 })}.${b64({})}.AA`,
    `PLAT ${b64({ alg: 'EdDSA', typ: 'JWT', kid: 'did:plat:x#y' })}.${b64('not json')}.AA`,
    `PLAT ${b64({ alg: 'EdDSA', typ: 'JWT', kid: 'a#b' })}.${b64({ iss: ['x'], iat: 'now' })}.AA`,
    `PLAT ${b64([1, 2])}.${b64(null)}.AA`,
    `PLAT ${'A'.repeat(8000)}.${'B'.repeat(100)}.C`,
    'Basic dXNlcjpwYXNz',
    'PLAT \u00e9\u00e9.\u00e9.\u00e9',
  ];

  it.each(proofs.map((proof) => [proof.slice(0, 60), proof]))(
    'Authorization %j is 401',
    async (_label, authorization) => {
      const response = await request(t.http).get('/v1/profile').set('Authorization', authorization);
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('E_UNAUTHORIZED');
    },
  );

  const credentials = [
    'x',
    'a.b.c',
    `${b64({ alg: 'EdDSA', typ: 'did:plat:credential', kid: 'k' })}.${b64({ version: 1.5 })}.AA`,
    `${b64({ alg: 'EdDSA', typ: 'did:plat:credential', kid: 'k' })}.${b64({ version: 1, type: 'PlatCredential', att: 'all', prf: 'x' })}.AA`,
    `${b64({ alg: 'none', typ: 'did:plat:credential' })}.${b64({})}.`,
    'a.b',
    'a.b.c.d',
    `${b64({ alg: 'EdDSA', typ: 'did:plat:credential', kid: 'k' })}.${b64({})}.AA==`,
    // over the protocol's 256 KiB credential cap (refused before decoding), under the header limit
    `${b64({ alg: 'EdDSA', typ: 'did:plat:credential', kid: 'k' })}.${'A'.repeat(270_000)}.AA`,
  ];

  it.each(credentials.map((credential) => [credential.slice(0, 60), credential]))(
    'X-Credential %j is 403 on a gated route',
    async (_label, credential) => {
      const response = await app.get('/v1/profile', { credential });
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('E_FORBIDDEN');
    },
  );

  it('a public credential (aud "*") is refused here (403), though it verifies as a protocol credential', async () => {
    const person = await Actor.create(t);
    expect((await person.signUp('garbage-person')).status).toBe(201);
    const now = Math.floor(Date.now() / 1000);
    const credential = createCredential(
      {
        iss: person.did,
        aud: PUBLIC_AUDIENCE,
        host: t.config.publicHost,
        att: [{ resource: `account:${person.did}`, action: 'read:profile' }],
        prf: [],
        exp: now + 600,
        iat: now,
      },
      person.identity.issuingKey,
    ).token;
    for (const path of ['/v1/profile', '/v1/credential']) {
      const response = await app.get(path, { credential });
      expect({ path, status: response.status, code: response.body.code }).toEqual({
        path,
        status: 403,
        code: 'E_FORBIDDEN',
      });
    }
  });

  it('a request proof presented as X-Credential is 403', async () => {
    const proof = app.headers('GET', '/v1/profile').Authorization.slice('PLAT '.length);
    const response = await app.get('/v1/profile', { credential: proof });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('E_FORBIDDEN');
  });
});
