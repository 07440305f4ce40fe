import { createHash } from 'node:crypto';
import {
  applyIdentityOperation,
  formatCreatedAt,
  generateKeySigner,
  multikeyEntry,
  signIdentityOperation,
  signJws,
  type IdentityState,
  type KeySigner,
} from '../../../src/protocol/core';
import {
  ProofRejected,
  verifyRequestProof,
  type ProofRequest,
} from '../../../src/protocol/auth/domain/request-proof';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const NOW_S = Math.floor(NOW.getTime() / 1000);
const AUDIENCE = 'api.plat.test';

const authKey = generateKeySigner();
const controllerKey = generateKeySigner();
const genesis = signIdentityOperation(
  {
    version: 1,
    type: 'create',
    authKeys: [multikeyEntry(authKey)],
    assertKeys: [],
    controllerKeys: [multikeyEntry(controllerKey)],
    createdAt: formatCreatedAt(new Date(NOW.getTime() - 60_000)),
  },
  controllerKey,
);
const state: IdentityState = applyIdentityOperation(null, genesis.jws, { now: NOW }).state;
const DID = state.did;

interface ProofOptions {
  signer?: KeySigner;
  header?: Record<string, unknown>;
  claims?: Record<string, unknown>;
  omit?: string[];
}

function proof(method: string, target: string, options: ProofOptions = {}): string {
  const signer = options.signer ?? authKey;
  const claims: Record<string, unknown> = {
    iss: DID,
    sub: DID,
    aud: AUDIENCE,
    htm: method,
    htu: target,
    iat: NOW_S,
    exp: NOW_S + 120,
    jti: 'jti-0123456789abcdef',
    ...options.claims,
  };
  for (const name of options.omit ?? []) delete claims[name];
  const header = { typ: 'JWT', kid: `${DID}#${signer.keyId}`, ...options.header } as {
    typ: string;
    kid: string;
  };
  return `PLAT ${signJws(header, claims, signer)}`;
}

const context = {
  audience: AUDIENCE,
  now: NOW,
  stateOf: async (did: string) => (did === DID ? state : null),
};
const verify = (request: Partial<ProofRequest> & { authorization: string }) =>
  verifyRequestProof({ method: 'GET', target: '/v1/profile', ...request }, context);

async function rejected(request: Partial<ProofRequest> & { authorization: string }): Promise<string> {
  const error = await verify(request).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ProofRejected);
  return (error as Error).message;
}

function forge(authorization: string, change: (parts: string[]) => void): string {
  const parts = authorization.slice('PLAT '.length).split('.');
  change(parts);
  return `PLAT ${parts.join('.')}`;
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('request proofs (design.md §3)', () => {
  it('accepts a well-formed read proof and reports the signer and key roles', async () => {
    const verified = await verify({ authorization: proof('GET', '/v1/profile') });
    expect(verified).toMatchObject({ did: DID, keyId: authKey.keyId, roles: ['auth'], isWrite: false });
  });

  it('accepts a write with jti and reports it', async () => {
    const verified = await verify({
      method: 'POST',
      target: '/users',
      authorization: proof('POST', '/users'),
    });
    expect(verified).toMatchObject({ isWrite: true, jti: 'jti-0123456789abcdef' });
  });

  it('binds the query string byte for byte', async () => {
    const target = '/v1/spaces?limit=10&after=abc';
    await expect(verify({ target, authorization: proof('GET', target) })).resolves.toBeDefined();
    expect(await rejected({ target: `${target}&x=1`, authorization: proof('GET', target) })).toMatch(/htu/);
    expect(
      await rejected({ target: '/v1/spaces?limit=10&after=abd', authorization: proof('GET', target) }),
    ).toMatch(/htu/);
    expect(await rejected({ target: '/v1/Profile', authorization: proof('GET', '/v1/profile') })).toMatch(
      /htu/,
    );
  });

  it.each([
    ['another scheme', (a: string) => a.replace('PLAT ', 'Bearer ')],
    ['no token', () => 'PLAT'],
    ['extra segments', (a: string) => `${a} extra`],
    ['two spaces after the scheme', (a: string) => a.replace('PLAT ', 'PLAT  ')],
    ['a tab after the scheme', (a: string) => a.replace('PLAT ', 'PLAT\t')],
    ['a lower-case scheme', (a: string) => a.replace('PLAT ', 'plat ')],
    ['a trailing space', (a: string) => `${a} `],
  ])('refuses %s', async (_case, mangle) => {
    expect(await rejected({ authorization: mangle(proof('GET', '/v1/profile')) })).toMatch(/PLAT <proof>/);
  });

  it.each([
    ['alg none', { alg: 'none' }],
    ['alg HS256', { alg: 'HS256' }],
    ['a jwk header', { jwk: { kty: 'OKP' } }],
    ['a crit header', { crit: ['exp'] }],
    ['typ swapped to an identity op', { typ: 'did:plat:identity-op' }],
  ])('refuses %s', async (_case, header) => {
    const authorization = forge(proof('GET', '/v1/profile'), (parts) => {
      const decoded = JSON.parse(Buffer.from(parts[0], 'base64url').toString());
      parts[0] = b64({ ...decoded, ...header });
    });
    await rejected({ authorization });
  });

  it('refuses a bad signature', async () => {
    const authorization = forge(proof('GET', '/v1/profile'), (parts) => {
      parts[1] = b64({ ...JSON.parse(Buffer.from(parts[1], 'base64url').toString()), exp: NOW_S + 100 });
    });
    await rejected({ authorization });
  });

  it('refuses a key that is not in the current chain state', async () => {
    const stranger = generateKeySigner();
    expect(await rejected({ authorization: proof('GET', '/v1/profile', { signer: stranger }) })).toMatch(
      /key/,
    );
  });

  it('refuses an unknown identity', async () => {
    const other = 'did:plat:2222222222222222222222222222222';
    await rejected({ authorization: proof('GET', '/v1/profile', { claims: { iss: other, sub: other } }) });
  });

  it.each([
    ['htm', { htm: 'POST' }, /htm/],
    ['aud', { aud: 'evil.example' }, /aud/],
    ['sub differing from iss', { sub: 'did:plat:2222222222222222222222222222222' }, /sub/],
    ['iat too old', { iat: NOW_S - 301, exp: NOW_S - 1 }, /iat/],
    ['iat too far ahead', { iat: NOW_S + 61, exp: NOW_S + 120 }, /iat/],
    ['exp before iat', { exp: NOW_S - 1 }, /exp/],
    ['exp beyond 300 s', { exp: NOW_S + 301 }, /exp/],
    ['expired', { iat: NOW_S - 200, exp: NOW_S - 1 }, /expired/],
    ['float iat', { iat: NOW_S + 0.5 }, /integers/],
    ['malformed jti', { jti: 'short' }, /jti/],
  ])('refuses a wrong %s', async (_case, claims, message) => {
    expect(await rejected({ authorization: proof('GET', '/v1/profile', { claims }) })).toMatch(message);
  });

  it('accepts the edges of the window', async () => {
    await expect(
      verify({
        authorization: proof('GET', '/v1/profile', { claims: { iat: NOW_S - 250, exp: NOW_S + 1 } }),
      }),
    ).resolves.toBeDefined();
    await expect(
      verify({
        authorization: proof('GET', '/v1/profile', { claims: { iat: NOW_S + 60, exp: NOW_S + 360 } }),
      }),
    ).resolves.toBeDefined();
  });

  it('lets a read omit jti but not a write', async () => {
    await expect(
      verify({ authorization: proof('GET', '/v1/profile', { omit: ['jti'] }) }),
    ).resolves.toBeDefined();
    expect(
      await rejected({
        method: 'PATCH',
        target: '/profile',
        authorization: proof('PATCH', '/profile', { omit: ['jti'] }),
      }),
    ).toMatch(/jti/);
  });

  it('requires ath to hash the X-Credential value', async () => {
    const credential = 'header.payload.signature';
    const ath = createHash('sha256').update(credential).digest('base64url');
    await expect(
      verify({ credential, authorization: proof('GET', '/v1/profile', { claims: { ath } }) }),
    ).resolves.toBeDefined();
    expect(await rejected({ credential, authorization: proof('GET', '/v1/profile') })).toMatch(/ath/);
    expect(
      await rejected({
        credential: `${credential}x`,
        authorization: proof('GET', '/v1/profile', { claims: { ath } }),
      }),
    ).toMatch(/ath/);
  });

  it('reports a controller-only key so writes can be refused (403)', async () => {
    const verified = await verify({
      method: 'POST',
      target: '/users',
      authorization: proof('POST', '/users', { signer: controllerKey }),
    });
    expect(verified.roles).toEqual(['controller']);
  });
});
