import {
  computeCid,
  createKeySigner,
  createRevocation,
  generateKeySigner,
  revocationAppliesAsOf,
  signJws,
  verifyRevocation,
} from '../../../src/protocol/core';
import { headerOf, Identities, payloadOf, protocolErrorAsync } from './helpers';

const ids = new Identities();
const issuer = ids.did(1);
const other = ids.did(2);
const CREDENTIAL_CID = 'bafyreihp6omsp6icc6ee63ox2ovsaxm6s7ikd2a7k5eh2qz2qd5soh5bsa';
const CREATED_AT = '2026-03-07T00:00:00.000Z';

describe('revocation artifacts', () => {
  it('creates and verifies a did:plat:revocation with the spec payload', async () => {
    const signed = createRevocation(
      { did: issuer, credentialCID: CREDENTIAL_CID, createdAt: CREATED_AT },
      ids.signer,
    );
    expect(headerOf(signed.token)).toEqual({
      alg: 'EdDSA',
      typ: 'did:plat:revocation',
      kid: `${issuer}#${ids.signer.keyId}`,
      cid: signed.cid,
    });
    expect(payloadOf(signed.token)).toEqual({
      version: 1,
      type: 'revocation',
      did: issuer,
      credentialCID: CREDENTIAL_CID,
      createdAt: CREATED_AT,
    });
    const verified = await verifyRevocation(signed.token, {
      resolveKey: ids.resolve,
      expectedIssuer: issuer,
      expectedCredentialCid: CREDENTIAL_CID,
      now: new Date(CREATED_AT),
    });
    expect(verified.cid).toBe(computeCid(payloadOf(signed.token)).cid);
  });

  it('enforces the issuer-only rule and the named credential', async () => {
    const signed = createRevocation(
      { did: other, credentialCID: CREDENTIAL_CID, createdAt: CREATED_AT },
      ids.signer,
    );
    const error = await protocolErrorAsync(() =>
      verifyRevocation(signed.token, { resolveKey: ids.resolve, expectedIssuer: issuer }),
    );
    expect(error.code).toBe('UNAUTHORIZED');
    const elsewhere = await protocolErrorAsync(() =>
      verifyRevocation(signed.token, {
        resolveKey: ids.resolve,
        expectedCredentialCid: 'bafyreicoghvjznvliuloxxmbf54tpzqwahnqpilk7ncxepjinedpkga3ne',
      }),
    );
    expect(elsewhere.code).toBe('UNAUTHORIZED');
  });

  it('refuses a kid whose DID is not the revoking did', async () => {
    const payload = {
      version: 1,
      type: 'revocation',
      did: issuer,
      credentialCID: CREDENTIAL_CID,
      createdAt: CREATED_AT,
    };
    const token = signJws(
      { typ: 'did:plat:revocation', kid: `${other}#${ids.signer.keyId}`, cid: computeCid(payload).cid },
      payload,
      ids.signer,
    );
    expect((await protocolErrorAsync(() => verifyRevocation(token, { resolveKey: ids.resolve }))).code).toBe(
      'KID_INVALID',
    );
  });

  it.each([
    ['a non-CID credentialCID', { credentialCID: 'abc' }, 'MALFORMED'],
    ['a bad createdAt', { createdAt: '2026-03-07' }, 'MALFORMED'],
    ['another type', { type: 'revoke' }, 'MALFORMED'],
    ['an oversized payload', { note: 'x'.repeat(16384) }, 'TOO_LARGE'],
  ])('refuses %s', async (_name, change, code) => {
    const payload = {
      version: 1,
      type: 'revocation',
      did: issuer,
      credentialCID: CREDENTIAL_CID,
      createdAt: CREATED_AT,
      ...change,
    };
    const token = signJws(
      { typ: 'did:plat:revocation', kid: `${issuer}#${ids.signer.keyId}`, cid: computeCid(payload).cid },
      payload,
      ids.signer,
    );
    expect((await protocolErrorAsync(() => verifyRevocation(token, { resolveKey: ids.resolve }))).code).toBe(
      code,
    );
  });

  it('refuses the credential typ, a forged signature and a far-future createdAt', async () => {
    const payload = {
      version: 1,
      type: 'revocation',
      did: issuer,
      credentialCID: CREDENTIAL_CID,
      createdAt: CREATED_AT,
    };
    const wrongTyp = signJws(
      { typ: 'did:plat:credential', kid: `${issuer}#${ids.signer.keyId}`, cid: computeCid(payload).cid },
      payload,
      ids.signer,
    );
    expect(
      (await protocolErrorAsync(() => verifyRevocation(wrongTyp, { resolveKey: ids.resolve }))).code,
    ).toBe('JWS_PROFILE');
    const impostor = createKeySigner(generateKeySigner().privateKey, ids.signer.keyId);
    const forged = createRevocation(
      { did: issuer, credentialCID: CREDENTIAL_CID, createdAt: CREATED_AT },
      impostor,
    );
    expect(
      (await protocolErrorAsync(() => verifyRevocation(forged.token, { resolveKey: ids.resolve }))).code,
    ).toBe('SIGNATURE_INVALID');
    const future = createRevocation(
      { did: issuer, credentialCID: CREDENTIAL_CID, createdAt: '2026-03-08T00:00:00.001Z' },
      ids.signer,
    );
    expect(
      (
        await protocolErrorAsync(() =>
          verifyRevocation(future.token, { resolveKey: ids.resolve, now: new Date(CREATED_AT) }),
        )
      ).code,
    ).toBe('TIMESTAMP_FUTURE');
  });

  it('applies the inclusive as-of rule R.createdAt <= O.createdAt', () => {
    const revocation = { createdAt: '2026-03-07T00:00:01.000Z' };
    expect(revocationAppliesAsOf(revocation, '2026-03-07T00:00:01.000Z')).toBe(true);
    expect(revocationAppliesAsOf(revocation, '2026-03-07T00:00:02.000Z')).toBe(true);
    expect(revocationAppliesAsOf(revocation, '2026-03-07T00:00:00.999Z')).toBe(false);
  });
});
