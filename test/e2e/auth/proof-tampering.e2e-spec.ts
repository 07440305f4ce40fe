import { createHash, createHmac, randomBytes } from 'node:crypto';
import request, { Response } from 'supertest';
import { formatCreatedAt, generateKeySigner, signIdentityOperation } from '../../../src/protocol/core';
import { Actor, publish } from '../../support/actors';
import { bootApp, TestApp } from '../../support/app';

const b64 = (value: unknown): string =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

interface Signer {
  keyId: string;
  sign(message: Uint8Array): Uint8Array;
}

/**
 * Request proofs built by hand from design.md §3 (not through the typed client), each differing from
 * a valid one in exactly one rule. Every verification failure is 401 E_UNAUTHORIZED, a refused write
 * stores nothing and leaves its jti unspent, and nothing answers 500.
 */
describe('request proofs built from the documents, one rule broken at a time (e2e)', () => {
  let t: TestApp;
  let alice: Actor;
  let host: string;

  beforeAll(async () => {
    t = await bootApp();
    host = t.config.publicHost;
    alice = await Actor.create(t);
    expect((await alice.signUp('tamper-alice')).status).toBe(201);
  });

  afterAll(async () => {
    await t.close();
  });

  const now = () => Math.floor(Date.now() / 1000);

  function claimsFor(method: string, target: string, extra: Record<string, unknown> = {}) {
    const iat = now();
    return {
      iss: alice.did,
      sub: alice.did,
      aud: host,
      htm: method,
      htu: target,
      iat,
      exp: iat + 120,
      ...(method === 'GET' ? {} : { jti: randomBytes(18).toString('base64url') }),
      ...extra,
    };
  }

  function sign(header: Record<string, unknown>, claims: object, key: Signer = alice.identity.authKey) {
    const input = `${b64(header)}.${b64(claims)}`;
    return `${input}.${Buffer.from(key.sign(Buffer.from(input))).toString('base64url')}`;
  }

  const kid = (keyId = alice.identity.authKey.keyId, did = alice.did) => `${did}#${keyId}`;
  const header = (extra: Record<string, unknown> = {}) => ({
    alg: 'EdDSA',
    typ: 'JWT',
    kid: kid(),
    ...extra,
  });

  const read = (authorization: string, path = '/v1/profile') =>
    request(t.http).get(path).set('Authorization', authorization);
  const write = (authorization: string, body: object = { bio: 'tampered' }) =>
    request(t.http).patch('/profile').set('Authorization', authorization).send(body);

  function expect401(response: Response): void {
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('E_UNAUTHORIZED');
    expect(typeof response.body.message).toBe('string');
    expect(Object.keys(response.body).sort()).toEqual(['code', 'message']);
    expect(response.headers['cache-control']).toBe('no-store');
  }

  it('accepts the hand-built proof (the baseline every case below differs from)', async () => {
    const response = await read(`PLAT ${sign(header(), claimsFor('GET', '/v1/profile'))}`);
    expect(response.status).toBe(200);
    expect(response.body.did).toBe(alice.did);
    const claims = claimsFor('PATCH', '/profile');
    const written = await write(`PLAT ${sign(header(), claims)}`, { bio: 'baseline' });
    expect(written.status).toBe(200);
    expect(written.body.bio).toBe('baseline');
  });

  describe('header', () => {
    const good = () => sign(header(), claimsFor('GET', '/v1/profile'));
    const cases: [string, () => string][] = [
      ['scheme Bearer', () => `Bearer ${good()}`],
      ['scheme DPoP', () => `DPoP ${good()}`],
      ['no scheme', () => good()],
      ['two tokens', () => `PLAT ${good()} ${good()}`],
      ['scheme in lower case', () => `plat ${good()}`],
      ['two spaces after the scheme', () => `PLAT  ${good()}`],
      ['a tab after the scheme', () => `PLAT\t${good()}`],
      ['2 segments', () => `PLAT ${good().split('.').slice(0, 2).join('.')}`],
      ['4 segments', () => `PLAT ${good()}.${good().split('.')[2]}`],
      ['padded base64 signature', () => `PLAT ${good()}==`],
      [
        'standard (non-url) base64 signature',
        () => {
          const [h, p, s] = good().split('.');
          return `PLAT ${h}.${p}.${Buffer.from(s, 'base64url').toString('base64').replace(/=+$/, '')}+/`;
        },
      ],
      ['a 100 KB token', () => `PLAT ${good().replace('.', `.${'A'.repeat(100_000)}`)}`],
      [
        'alg none, empty signature',
        () => `PLAT ${b64({ alg: 'none', typ: 'JWT', kid: kid() })}.${b64(claimsFor('GET', '/v1/profile'))}.`,
      ],
      [
        'alg HS256 keyed with the public key',
        () => {
          const input = `${b64({ alg: 'HS256', typ: 'JWT', kid: kid() })}.${b64(claimsFor('GET', '/v1/profile'))}`;
          const mac = createHmac('sha256', alice.identity.authKey.multikey).update(input).digest('base64url');
          return `PLAT ${input}.${mac}`;
        },
      ],
      [
        'alg Ed25519 (not the pinned EdDSA)',
        () => `PLAT ${sign(header({ alg: 'Ed25519' }), claimsFor('GET', '/v1/profile'))}`,
      ],
      ['alg eddsa', () => `PLAT ${sign(header({ alg: 'eddsa' }), claimsFor('GET', '/v1/profile'))}`],
      ['typ missing', () => `PLAT ${sign({ alg: 'EdDSA', kid: kid() }, claimsFor('GET', '/v1/profile'))}`],
      [
        'typ did:plat:credential',
        () => `PLAT ${sign(header({ typ: 'did:plat:credential' }), claimsFor('GET', '/v1/profile'))}`,
      ],
      [
        'typ did:plat:identity-op',
        () => `PLAT ${sign(header({ typ: 'did:plat:identity-op' }), claimsFor('GET', '/v1/profile'))}`,
      ],
      ['typ at+jwt', () => `PLAT ${sign(header({ typ: 'at+jwt' }), claimsFor('GET', '/v1/profile'))}`],
      [
        'jwk header carrying the signing key',
        () =>
          `PLAT ${sign(header({ jwk: { kty: 'OKP', crv: 'Ed25519', x: 'AAAA' } }), claimsFor('GET', '/v1/profile'))}`,
      ],
      [
        'jku header',
        () => `PLAT ${sign(header({ jku: 'https://evil.example/jwks' }), claimsFor('GET', '/v1/profile'))}`,
      ],
      ['x5c header', () => `PLAT ${sign(header({ x5c: ['AAAA'] }), claimsFor('GET', '/v1/profile'))}`],
      [
        'x5u header',
        () => `PLAT ${sign(header({ x5u: 'https://evil.example/cert' }), claimsFor('GET', '/v1/profile'))}`,
      ],
      ['crit header', () => `PLAT ${sign(header({ crit: ['exp'] }), claimsFor('GET', '/v1/profile'))}`],
      ['kid missing', () => `PLAT ${sign({ alg: 'EdDSA', typ: 'JWT' }, claimsFor('GET', '/v1/profile'))}`],
      [
        'kid without fragment',
        () => `PLAT ${sign(header({ kid: alice.did }), claimsFor('GET', '/v1/profile'))}`,
      ],
      [
        'kid naming an unknown key',
        () =>
          `PLAT ${sign(header({ kid: kid('key_2222222222222222222222222222222') }), claimsFor('GET', '/v1/profile'))}`,
      ],
      [
        'signature by another key under the right kid',
        () => `PLAT ${sign(header(), claimsFor('GET', '/v1/profile'), generateKeySigner())}`,
      ],
      [
        'signature over other claims',
        () => {
          const [h] = sign(header(), claimsFor('GET', '/v1/profile')).split('.');
          const other = sign(header(), claimsFor('GET', '/v1/profile?x=1')).split('.');
          return `PLAT ${h}.${b64(claimsFor('GET', '/v1/profile'))}.${other[2]}`;
        },
      ],
    ];

    it.each(cases)('%s is 401', async (_label, build) => {
      expect401(await read(build()));
    });
  });

  describe('claims', () => {
    const cases: [string, Record<string, unknown>][] = [
      ['iss another DID', { iss: 'did:plat:2222222222222222222222222222222' }],
      ['sub differs from iss', { sub: 'did:plat:2222222222222222222222222222222' }],
      ['sub missing', { sub: undefined }],
      ['iss not a DID', { iss: 'alice', sub: 'alice' }],
      ['aud another host', { aud: 'api.elsewhere.example' }],
      ['aud as an array', { aud: [] as string[] }],
      ['aud with a scheme', { aud: `https://${'HOST'}` }],
      ['htm lower case', { htm: 'get' }],
      ['htm another method', { htm: 'POST' }],
      ['htu one byte of path differs', { htu: '/v1/profilE' }],
      ['htu with a trailing slash', { htu: '/v1/profile/' }],
      ['htu as an absolute URL', { htu: `http://HOST/v1/profile` }],
      ['htu with an appended empty query', { htu: '/v1/profile?' }],
      ['htu with an appended query parameter', { htu: '/v1/profile?a=1' }],
      ['iat 400 s in the past', { iat: -400, exp: -400 + 120 }],
      ['iat 200 s ahead', { iat: 200, exp: 200 + 120 }],
      ['exp equal to iat', { exp: 0 }],
      ['exp before iat', { exp: -1 }],
      ['exp 301 s after iat', { exp: 301 }],
      ['exp in the past', { iat: -250, exp: -10 }],
      ['iat as a float', { iat: 0.5 }],
      ['iat as a string', { iat: 'NOW' }],
      ['exp missing', { exp: undefined }],
      ['jti too short', { jti: 'abcdefghijklmno' }],
      ['jti with a dot', { jti: 'abcdefghijklmnop.' }],
      ['jti not a string', { jti: 1234567890123456 }],
      ['jti of 129 characters', { jti: 'a'.repeat(129) }],
    ];

    it.each(cases)('%s is 401', async (_label, changes) => {
      const base = claimsFor('GET', '/v1/profile');
      const claims: Record<string, unknown> = { ...base };
      for (const [name, value] of Object.entries(changes)) {
        if (value === undefined) delete claims[name];
        else if ((name === 'iat' || name === 'exp') && typeof value === 'number' && Number.isInteger(value))
          claims[name] = base.iat + value;
        else if (name === 'iat' && typeof value === 'number') claims[name] = base.iat + value;
        else if (typeof value === 'string') claims[name] = value.replace('HOST', host);
        else claims[name] = value;
      }
      expect401(await read(`PLAT ${sign(header(), claims)}`));
    });

    it('the query is bound byte for byte: an encoded variant of the same query is 401', async () => {
      const signed = `PLAT ${sign(header(), claimsFor('GET', '/v1/profile?a=b%20c'))}`;
      expect401(await read(signed, '/v1/profile?a=b+c'));
      expect401(await read(signed, '/v1/profile?a=b%20c&a=b%20c'));
      expect401(await read(signed, '/v1/profile?a=b%20C'));
      expect((await read(signed, '/v1/profile?a=b%20c')).status).toBe(200);
    });

    it('accepts iat 200 s in the past and 30 s ahead (inside the window)', async () => {
      const base = claimsFor('GET', '/v1/profile');
      const past = { ...base, iat: base.iat - 200, exp: base.iat - 200 + 300 };
      expect((await read(`PLAT ${sign(header(), past)}`)).status).toBe(200);
      const ahead = { ...base, iat: base.iat + 30, exp: base.iat + 90 };
      expect((await read(`PLAT ${sign(header(), ahead)}`)).status).toBe(200);
    });

    it('ath that does not hash the X-Credential value is 401', async () => {
      const credential = alice.grant(alice, ['read:profile']);
      const wrong = createHash('sha256').update(`${credential}x`).digest('base64url');
      const response = await request(t.http)
        .get('/v1/profile')
        .set('Authorization', `PLAT ${sign(header(), claimsFor('GET', '/v1/profile', { ath: wrong }))}`)
        .set('X-Credential', credential);
      expect401(response);
    });
  });

  describe('writes', () => {
    it.each([
      ['jti missing', (c: Record<string, unknown>) => ({ ...c, jti: undefined })],
      ['htu of another route', (c: Record<string, unknown>) => ({ ...c, htu: '/profile/pins' })],
      ['htm of another method', (c: Record<string, unknown>) => ({ ...c, htm: 'PUT' })],
      ['aud another host', (c: Record<string, unknown>) => ({ ...c, aud: 'elsewhere.example' })],
    ])('%s is 401, changes nothing and leaves the jti unspent', async (_label, tamper) => {
      const claims = claimsFor('PATCH', '/profile');
      const before = (await alice.get('/v1/profile')).body.bio;
      const tampered = JSON.parse(JSON.stringify(tamper(claims))) as Record<string, unknown>;
      expect401(await write(`PLAT ${sign(header(), tampered)}`, { bio: 'never stored' }));
      expect((await alice.get('/v1/profile')).body.bio).toBe(before);
      const honest = await write(`PLAT ${sign(header(), claims)}`, { bio: `after ${_label}` });
      expect(honest.status).toBe(200);
    });

    it.each([16, 128])('accepts a write jti of %i characters (the pattern edges)', async (length) => {
      const jti = randomBytes(96).toString('base64url').slice(0, length);
      const response = await write(`PLAT ${sign(header(), claimsFor('PATCH', '/profile', { jti }))}`, {
        bio: `jti ${length}`,
      });
      expect(response.status).toBe(200);
    });

    it('a write signed by an assert-only key is 403 and stores nothing; its jti stays unspent', async () => {
      const bob = await Actor.create(t);
      await bob.signUp('tamper-bob');
      const assertOnly = bob.identity.addKey(['assert']);
      await publish(t, [assertOnly.jws]);
      const key = assertOnly.key as Signer;
      const claims = { ...claimsFor('PATCH', '/profile'), iss: bob.did, sub: bob.did };
      const refused = await write(`PLAT ${sign(header({ kid: kid(key.keyId, bob.did) }), claims, key)}`, {
        bio: 'by assert key',
      });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ code: 'E_FORBIDDEN', message: expect.any(String) });
      expect((await bob.get('/v1/profile')).body.bio).toBeNull();
      // the same jti, now signed by the auth key, is not used up
      const accepted = await write(
        `PLAT ${sign(header({ kid: kid(bob.identity.authKey.keyId, bob.did) }), claims, bob.identity.authKey)}`,
        { bio: 'by auth key' },
      );
      expect(accepted.status).toBe(200);
      const replay = await write(
        `PLAT ${sign(header({ kid: kid(bob.identity.authKey.keyId, bob.did) }), claims, bob.identity.authKey)}`,
        { bio: 'again' },
      );
      expect(replay.status).toBe(409);
      expect(replay.body).toEqual({ code: 'E_CONFLICT', message: 'Replayed request' });
    });

    it('a refused POST /users creates no account', async () => {
      const carol = await Actor.create(t);
      const claims = {
        ...claimsFor('POST', '/users'),
        iss: carol.did,
        sub: carol.did,
        aud: 'elsewhere.example',
      };
      const refused = await request(t.http)
        .post('/users')
        .set(
          'Authorization',
          `PLAT ${sign(header({ kid: kid(carol.identity.authKey.keyId, carol.did) }), claims, carol.identity.authKey)}`,
        )
        .send({ handle: 'tamper-carol' });
      expect401(refused);
      expect((await carol.get('/v1/profile')).status).not.toBe(200);
      expect((await carol.signUp('tamper-carol')).status).toBe(201);
    });
  });

  it('a deleted identity: its proofs are 401 at once and its credentials are broken (403)', async () => {
    const dora = await Actor.create(t);
    const app = await Actor.create(t);
    expect((await dora.signUp('tamper-dora')).status).toBe(201);
    const credential = dora.grant(app, ['read:profile']);
    expect((await app.get('/v1/profile', { credential })).status).toBe(200);
    const deletion = signIdentityOperation(
      {
        version: 1,
        type: 'delete',
        previousOperationCID: dora.identity.headCid,
        createdAt: formatCreatedAt(new Date(Date.now() + 1000)),
      },
      dora.identity.signerFor('controller'),
      { did: dora.did },
    );
    await publish(t, [deletion.jws]);
    expect401(await dora.get('/v1/profile'));
    const refused = await app.get('/v1/profile', { credential });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('E_FORBIDDEN');
  });
});
