import {
  buildAttenuations,
  CredentialInputError,
  issueCredential,
  parseDuration,
  PlatIdentity,
  revokeCredential,
} from '../../../src/protocol/client';
import {
  computeCid,
  ProtocolError,
  verifyCredential,
  verifyRevocation,
  type CredentialVerifyOptions,
} from '../../../src/protocol/core';
import { clock, HOST, NOW, NOW_S, resolverFor, segment } from './helpers';

const person = PlatIdentity.create({ assert: true, clock: () => new Date(NOW.getTime() - 3_600_000) });
const app = PlatIdentity.create({ clock: () => new Date(NOW.getTime() - 3_600_000) });
const SPACE = app.did; // any did:plat DID serves as a space DID here

function verifyOptions(overrides: Partial<CredentialVerifyOptions> = {}): CredentialVerifyOptions {
  return {
    resolveIssuerKey: resolverFor(person, app),
    isRevoked: () => false,
    now: NOW,
    expectedAudience: app.did,
    expectedHost: HOST,
    ...overrides,
  };
}

function issue() {
  return issueCredential(person, {
    audience: app.did,
    host: HOST,
    scopes: ['write:posts', 'read:posts', 'read:profile'],
    spaces: ['*'],
    expiresInSeconds: 3600,
    clock,
  });
}

describe('credentials (design.md §4)', () => {
  it('issues a PlatCredential the core library verifies, with host and aud checks', async () => {
    const credential = issue();
    const verified = await verifyCredential(credential.token, verifyOptions());
    expect(verified.issuer).toBe(person.did);
    expect(verified.audience).toBe(app.did);
    expect(verified.host).toBe(HOST);
    expect(segment(credential.token, 0)).toEqual({
      alg: 'EdDSA',
      typ: 'did:plat:credential',
      kid: `${person.did}#${person.issuingKey.keyId}`,
      cid: credential.cid,
    });
    expect(segment(credential.token, 1)).toEqual({
      version: 1,
      type: 'PlatCredential',
      iss: person.did,
      aud: app.did,
      host: HOST,
      att: [
        { resource: 'space:*', action: 'read:posts,write:posts' },
        { resource: `account:${person.did}`, action: 'read:profile' },
      ],
      prf: [],
      exp: NOW_S + 3600,
      iat: NOW_S,
    });
  });

  it('is signed by the assert key when the identity holds one', () => {
    expect(person.issuingKey.keyId).toBe(person.state.assertKeys[0].id);
    expect(app.issuingKey.keyId).toBe(app.state.authKeys[0].id);
  });

  it('is refused for another host or another audience', async () => {
    const { token } = issue();
    await expect(verifyCredential(token, verifyOptions({ expectedHost: 'other.example' }))).rejects.toThrow(
      ProtocolError,
    );
    await expect(verifyCredential(token, verifyOptions({ expectedAudience: person.did }))).rejects.toThrow(
      ProtocolError,
    );
  });

  it('has a stable CID: the CID of its payload, the same for the same inputs', () => {
    const first = issue();
    const second = issue();
    expect(first.cid).toBe(computeCid(segment(first.token, 1)).cid);
    expect(first.cid).toMatch(/^bafyrei[a-z2-7]{52}$/);
    expect(second.cid).toBe(first.cid);
    expect(second.token).toBe(first.token);
  });

  it('backdates iat on request and honours an absolute exp', () => {
    const credential = issueCredential(person, {
      audience: app.did,
      host: HOST,
      scopes: ['read:profile'],
      backdateSeconds: 60,
      exp: NOW_S + 10,
      clock,
    });
    expect(credential.payload.iat).toBe(NOW_S - 60);
    expect(credential.payload.exp).toBe(NOW_S + 10);
  });

  describe('attenuations', () => {
    it('puts space scopes on each named space and account scopes on the account', () => {
      expect(buildAttenuations(person.did, ['read:memberships', 'write:comments'], [SPACE, SPACE])).toEqual([
        { resource: `space:${SPACE}`, action: 'write:comments' },
        { resource: `account:${person.did}`, action: 'read:memberships' },
      ]);
    });

    it('collapses to space:* when * is among the spaces', () => {
      expect(buildAttenuations(person.did, ['read:posts'], [SPACE, '*'])).toEqual([
        { resource: 'space:*', action: 'read:posts' },
      ]);
    });

    it.each([
      [['read:everything'], ['*']],
      [[], []],
      [['read:posts'], []],
      [['read:posts'], ['space_123']],
      [['read:profile'], ['*']],
    ])('refuses scopes %j with spaces %j', (scopes, spaces) => {
      expect(() => buildAttenuations(person.did, scopes, spaces)).toThrow(CredentialInputError);
    });

    it('refuses a non-DID audience', () => {
      expect(() =>
        issueCredential(person, { audience: 'app', host: HOST, scopes: ['read:profile'], clock }),
      ).toThrow(CredentialInputError);
    });
  });

  describe('revocation', () => {
    it('produces a did:plat:revocation the core library verifies (issuer-only, named credential)', async () => {
      const credential = issue();
      const revocation = revokeCredential(person, credential.token, { clock });
      expect(segment(revocation.token, 0)).toMatchObject({ typ: 'did:plat:revocation', cid: revocation.cid });
      expect(segment(revocation.token, 1)).toEqual({
        version: 1,
        type: 'revocation',
        did: person.did,
        credentialCID: credential.cid,
        createdAt: NOW.toISOString(),
      });
      const verified = await verifyRevocation(revocation.token, {
        resolveKey: resolverFor(person),
        expectedIssuer: person.did,
        expectedCredentialCid: credential.cid,
        now: NOW,
      });
      expect(verified.cid).toBe(revocation.cid);
    });

    it('takes a credential CID as well as its token', () => {
      const credential = issue();
      expect(revokeCredential(person, credential.cid, { clock }).token).toBe(
        revokeCredential(person, credential.token, { clock }).token,
      );
    });

    it('refuses to revoke a credential someone else issued', () => {
      expect(() => revokeCredential(app, issue().token, { clock })).toThrow(/only its issuer/);
    });
  });

  it.each([
    ['30d', 30 * 86400],
    ['12h', 43200],
    ['45m', 2700],
    ['90s', 90],
    ['3600', 3600],
    ['2w', 14 * 86400],
  ])('parses the duration %s', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each(['', '0d', '-1d', '1y', '1.5h'])('refuses the duration %j', (text) => {
    expect(() => parseDuration(text)).toThrow(CredentialInputError);
  });
});
