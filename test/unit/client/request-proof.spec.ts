import { createHash } from 'node:crypto';
import {
  JTI_PATTERN,
  PlatIdentity,
  requestProofHeader,
  signRequestProof,
  type RequestProofInput,
} from '../../../src/protocol/client';
import { verifyRequestProof } from '../../../src/protocol/auth/domain/request-proof';
import { verifyJws } from '../../../src/protocol/core';
import { clock, HOST, NOW, NOW_S, rawSegment, segment } from './helpers';

const identity = PlatIdentity.create({ clock: () => new Date(NOW.getTime() - 60_000) });
const DID = identity.did;

function proof(overrides: Partial<RequestProofInput> = {}) {
  return signRequestProof({
    identity,
    audience: HOST,
    method: 'GET',
    target: '/v1/profile',
    clock,
    ...overrides,
  });
}

describe('request proofs (design.md §3)', () => {
  it('has exactly the protected header {"alg":"EdDSA","typ":"JWT","kid":"<did>#<keyId>"}', () => {
    const { token } = proof();
    expect(rawSegment(token, 0)).toBe(
      JSON.stringify({ alg: 'EdDSA', typ: 'JWT', kid: `${DID}#${identity.authKey.keyId}` }),
    );
  });

  it('is signed by a key of authKeys, and verifies against it', () => {
    const { token } = proof();
    expect(identity.state.authKeys.map((key) => key.id)).toContain(identity.authKey.keyId);
    expect(() => verifyJws(token, identity.authKey.publicKey, { expectedTyp: 'JWT' })).not.toThrow();
  });

  it('carries exactly iss, sub, aud, htm, htu, iat, exp on a read without credential', () => {
    const { token, claims } = proof();
    const decoded = segment(token, 1);
    expect(decoded).toEqual({
      iss: DID,
      sub: DID,
      aud: HOST,
      htm: 'GET',
      htu: '/v1/profile',
      iat: NOW_S,
      exp: NOW_S + 120,
    });
    expect(claims).toEqual(decoded);
  });

  it('upper-cases the method into htm', () => {
    expect(segment(proof({ method: 'patch', target: '/profile' }).token, 1).htm).toBe('PATCH');
  });

  it('binds htu to path and raw query byte for byte', () => {
    const target = '/v1/spaces/space_1/posts?limit=5&after=abc%2Fdef&sort=newest';
    expect(segment(proof({ target }).token, 1).htu).toBe(target);
    expect(segment(proof({ target: '/v1/feed' }).token, 1).htu).toBe('/v1/feed');
  });

  it('keeps exp within 300 s of iat and refuses a longer lifetime', () => {
    const claims = segment(proof({ lifetimeSeconds: 300 }).token, 1);
    expect((claims.exp as number) - (claims.iat as number)).toBe(300);
    expect(() => proof({ lifetimeSeconds: 301 })).toThrow(RangeError);
    expect(() => proof({ lifetimeSeconds: 0 })).toThrow(RangeError);
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('always carries a fresh random jti on %s', (method) => {
    const first = segment(proof({ method, target: '/users' }).token, 1).jti as string;
    const second = segment(proof({ method, target: '/users' }).token, 1).jti as string;
    expect(first).toMatch(JTI_PATTERN);
    expect(first).toMatch(/^[A-Za-z0-9_-]{16,128}$/);
    expect(second).not.toBe(first);
  });

  it('omits jti on reads unless asked, and takes a given one', () => {
    expect(segment(proof().token, 1)).not.toHaveProperty('jti');
    expect(segment(proof({ jti: true }).token, 1).jti).toMatch(JTI_PATTERN);
    expect(segment(proof({ jti: 'my-request-0000001' }).token, 1).jti).toBe('my-request-0000001');
    expect(() => proof({ jti: 'short' })).toThrow(TypeError);
    expect(() => proof({ jti: 'has spaces in it but long' })).toThrow(TypeError);
  });

  it('adds ath = base64url(sha256(X-Credential)) when a credential is sent', () => {
    const credential = 'eyJhbGciOiJFZERTQSJ9.e30.c2ln';
    const claims = segment(proof({ credential }).token, 1);
    expect(claims.ath).toBe(createHash('sha256').update(credential).digest('base64url'));
    expect(Object.keys(claims)).toEqual(['iss', 'sub', 'aud', 'htm', 'htu', 'iat', 'exp', 'ath']);
  });

  it('returns the Authorization value "PLAT <jws>"', () => {
    const header = requestProofHeader({ identity, audience: HOST, method: 'GET', target: '/x', clock });
    expect(header).toMatch(/^PLAT [A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('refuses a target that is not a path', () => {
    expect(() => proof({ target: 'v1/profile' })).toThrow(TypeError);
  });

  describe('accepted by the server verifier', () => {
    const context = {
      audience: HOST,
      now: NOW,
      stateOf: async (did: string) => (did === DID ? identity.state : null),
    };

    it('a read and a write with credential', async () => {
      const read = proof({ target: '/v1/feed?limit=5' });
      await expect(
        verifyRequestProof(
          { method: 'GET', target: '/v1/feed?limit=5', authorization: read.authorization },
          context,
        ),
      ).resolves.toMatchObject({ did: DID, isWrite: false, jti: undefined });

      const credential = 'a.b.c';
      const write = proof({ method: 'post', target: '/v1/spaces/s/posts', credential });
      await expect(
        verifyRequestProof(
          { method: 'POST', target: '/v1/spaces/s/posts', authorization: write.authorization, credential },
          context,
        ),
      ).resolves.toMatchObject({ did: DID, isWrite: true, jti: write.claims.jti });
    });
  });
});
