import {
  attenuationsGrant,
  canonicalActionSet,
  computeCid,
  createCredential,
  createKeySigner,
  credentialGrants,
  decodeCredential,
  DFOS_BRAND,
  generateKeySigner,
  isAttenuationOf,
  resourceCovers,
  signJws,
  verifyCredential,
  type Attenuation,
  type CredentialVerifyOptions,
} from '../../../src/protocol/core';
import { headerOf, Identities, loadVector, payloadOf, protocolErrorAsync, referenceKey } from './helpers';

const NOW = new Date('2026-06-01T00:00:00.000Z');
const NOW_S = Math.floor(NOW.getTime() / 1000);
const IAT = NOW_S - 3600;
const EXP = NOW_S + 30 * 86400;
const HOST = 'api.plat.example';

const ids = new Identities();
const root = ids.did(0);
const chainRead: Attenuation[] = [{ resource: 'chain:*', action: 'read,write' }];

function options(overrides: Partial<CredentialVerifyOptions> = {}): CredentialVerifyOptions {
  return { resolveIssuerKey: ids.resolve, isRevoked: () => false, now: NOW, ...overrides };
}

/** root → d1 → … → d<length>: `length` credentials, leaf addressed to d<length>. */
function delegationChain(length: number, att: Attenuation[] = chainRead, extra: { host?: string } = {}) {
  const tokens: string[] = [];
  const cids: string[] = [];
  for (let i = 0; i < length; i++) {
    const credential = createCredential(
      {
        iss: ids.did(i),
        aud: ids.did(i + 1),
        att,
        prf: i === 0 ? [] : [tokens[i - 1]],
        exp: EXP - i,
        iat: IAT,
        ...extra,
      },
      ids.signer,
    );
    tokens.push(credential.token);
    cids.push(credential.cid);
  }
  return { leaf: tokens[length - 1], tokens, cids, audience: ids.did(length) };
}

describe('credentials: reference vector (dfos brand)', () => {
  const vector = loadVector<{
    credential: string;
    issuerPublicKey: string;
    expected: { iss: string; aud: string };
  }>('credential-read.json');

  it('verifies the read credential with historical key resolution and the expected audience', async () => {
    const verified = await verifyCredential(vector.credential, {
      resolveIssuerKey: () => vector.issuerPublicKey,
      isRevoked: () => false,
      now: NOW,
      expectedAudience: vector.expected.aud,
      expectedRoot: vector.expected.iss,
      brand: DFOS_BRAND,
    });
    expect(verified.issuer).toBe(vector.expected.iss);
    expect(verified.audience).toBe(vector.expected.aud);
    expect(verified.cid).toBe(headerOf(vector.credential).cid);
    expect(verified.chain).toHaveLength(1);
    expect(
      credentialGrants(
        verified,
        { resource: 'chain:8n8fnzhrrefkrde6h72kfvff43r8c63', action: 'read' },
        DFOS_BRAND,
      ),
    ).toBe(true);
    expect(
      credentialGrants(
        verified,
        { resource: 'chain:8n8fnzhrrefkrde6h72kfvff43r8c63', action: 'write' },
        DFOS_BRAND,
      ),
    ).toBe(false);
  });

  it('is refused under the PLAT brand (typ, then type)', async () => {
    const error = await protocolErrorAsync(() => verifyCredential(vector.credential, options()));
    expect(error.code).toBe('JWS_PROFILE');
  });

  it('re-signed as a PlatCredential verifies; its CID necessarily changes (type and DIDs are in the payload)', async () => {
    const original = payloadOf(vector.credential);
    const toPlat = (did: string) => did.replace('did:dfos:', 'did:plat:');
    const resigned = createCredential(
      {
        iss: toPlat(original.iss as string),
        aud: toPlat(original.aud as string),
        att: original.att as Attenuation[],
        exp: original.exp as number,
        iat: original.iat as number,
      },
      referenceKey(1),
    );
    expect(headerOf(resigned.token)).toMatchObject({
      typ: 'did:plat:credential',
      kid: `${toPlat(original.iss as string)}#key_r9ev34fvc23z999veaaft83nn29zvhe`,
    });
    expect(resigned.payload.type).toBe('PlatCredential');
    expect(resigned.cid).not.toBe(headerOf(vector.credential).cid);
    const verified = await verifyCredential(
      resigned.token,
      options({ resolveIssuerKey: () => referenceKey(1).multikey }),
    );
    expect(verified.cid).toBe(resigned.cid);
  });
});

describe('credentials: create and verify', () => {
  it('orders members as design.md §4 and binds host by the CID', async () => {
    const credential = createCredential(
      {
        iss: root,
        aud: ids.did(1),
        host: HOST,
        att: [{ resource: 'space:*', action: 'read:posts' }],
        exp: EXP,
        iat: IAT,
      },
      ids.signer,
    );
    expect(Object.keys(payloadOf(credential.token))).toEqual([
      'version',
      'type',
      'iss',
      'aud',
      'host',
      'att',
      'prf',
      'exp',
      'iat',
    ]);
    expect(credential.cid).toBe(computeCid(payloadOf(credential.token)).cid);
    const verified = await verifyCredential(
      credential.token,
      options({ expectedHost: HOST, expectedAudience: ids.did(1) }),
    );
    expect(verified.host).toBe(HOST);
    expect(decodeCredential(credential.token).cid).toBe(credential.cid);
  });

  it('refuses a credential whose host is another API, or that has no host when one is expected', async () => {
    const other = createCredential(
      { iss: root, aud: ids.did(1), host: 'evil.example', att: chainRead, exp: EXP, iat: IAT },
      ids.signer,
    );
    expect(
      (await protocolErrorAsync(() => verifyCredential(other.token, options({ expectedHost: HOST })))).code,
    ).toBe('UNAUTHORIZED');
    const none = createCredential(
      { iss: root, aud: ids.did(1), att: chainRead, exp: EXP, iat: IAT },
      ids.signer,
    );
    expect(
      (await protocolErrorAsync(() => verifyCredential(none.token, options({ expectedHost: HOST })))).code,
    ).toBe('UNAUTHORIZED');
  });

  it('refuses aud "*" by default, at the leaf and as a parent; accepts it only when allowed', async () => {
    const pub = createCredential({ iss: root, aud: '*', att: chainRead, exp: EXP, iat: IAT }, ids.signer);
    const error = await protocolErrorAsync(() => verifyCredential(pub.token, options()));
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.message).toContain('*');
    const child = createCredential(
      { iss: ids.did(5), aud: ids.did(6), att: chainRead, prf: [pub.token], exp: EXP, iat: IAT },
      ids.signer,
    );
    expect((await protocolErrorAsync(() => verifyCredential(child.token, options()))).code).toBe(
      'UNAUTHORIZED',
    );
    const verified = await verifyCredential(
      child.token,
      options({ allowPublicAudience: true, expectedRoot: root }),
    );
    expect(verified.chain.map((c) => c.payload.aud)).toEqual([ids.did(6), '*']);
  });

  it('enforces the validity window [iat, exp) against the injected time', async () => {
    const credential = createCredential(
      { iss: root, aud: ids.did(1), att: chainRead, exp: NOW_S + 10, iat: NOW_S },
      ids.signer,
    );
    await expect(verifyCredential(credential.token, options())).resolves.toBeDefined(); // iat == now accepted
    const atExp = await protocolErrorAsync(() =>
      verifyCredential(credential.token, options({ now: new Date((NOW_S + 10) * 1000) })),
    );
    expect(atExp.code).toBe('CREDENTIAL_EXPIRED');
    const early = await protocolErrorAsync(() =>
      verifyCredential(credential.token, options({ now: new Date((NOW_S - 1) * 1000) })),
    );
    expect(early.code).toBe('CREDENTIAL_NOT_YET_VALID');
    expect(early.message).toContain('not valid yet');
    // sub-second time basis is floored: exp - 1 s + 999 ms is still valid
    await expect(
      verifyCredential(credential.token, options({ now: new Date((NOW_S + 9) * 1000 + 999) })),
    ).resolves.toBeDefined();
  });

  it('refuses a revoked credential and passes cid, issuer and as-of to the revocation check', async () => {
    const credential = createCredential(
      { iss: root, aud: ids.did(1), att: chainRead, exp: EXP, iat: IAT },
      ids.signer,
    );
    const calls: unknown[][] = [];
    const isRevoked = async (...args: unknown[]) => {
      calls.push(args);
      return true;
    };
    const error = await protocolErrorAsync(() =>
      verifyCredential(credential.token, options({ isRevoked, revocationAsOf: '2026-05-01T00:00:00.000Z' })),
    );
    expect(error.code).toBe('CREDENTIAL_REVOKED');
    expect(calls).toEqual([[credential.cid, root, '2026-05-01T00:00:00.000Z']]);
  });

  it('refuses a signature by a key the issuer resolver does not return', async () => {
    const impostor = createKeySigner(generateKeySigner().privateKey, ids.signer.keyId); // same kid, other key
    const credential = createCredential(
      { iss: root, aud: ids.did(1), att: chainRead, exp: EXP, iat: IAT },
      impostor,
    );
    expect((await protocolErrorAsync(() => verifyCredential(credential.token, options()))).code).toBe(
      'SIGNATURE_INVALID',
    );
    const unknownKid = createCredential(
      { iss: root, aud: ids.did(1), att: chainRead, exp: EXP, iat: IAT },
      generateKeySigner(),
    );
    expect((await protocolErrorAsync(() => verifyCredential(unknownKid.token, options()))).code).toBe(
      'KEY_NOT_FOUND',
    );
  });

  it('refuses a kid whose DID is not the issuer', async () => {
    const payload = {
      version: 1,
      type: 'PlatCredential',
      iss: root,
      aud: ids.did(1),
      att: chainRead,
      prf: [],
      exp: EXP,
      iat: IAT,
    };
    const token = signJws(
      { typ: 'did:plat:credential', kid: `${ids.did(1)}#${ids.signer.keyId}`, cid: computeCid(payload).cid },
      payload,
      ids.signer,
    );
    expect((await protocolErrorAsync(() => verifyCredential(token, options()))).code).toBe('KID_INVALID');
  });

  it('refuses the wrong audience and the wrong root', async () => {
    const { leaf, audience } = delegationChain(2);
    await expect(
      verifyCredential(leaf, options({ expectedAudience: audience, expectedRoot: root })),
    ).resolves.toBeDefined();
    expect(
      (await protocolErrorAsync(() => verifyCredential(leaf, options({ expectedAudience: root })))).code,
    ).toBe('UNAUTHORIZED');
    expect(
      (await protocolErrorAsync(() => verifyCredential(leaf, options({ expectedRoot: ids.did(1) })))).code,
    ).toBe('UNAUTHORIZED');
  });

  it.each([
    ['an empty att', { att: [] }, 'MALFORMED'],
    [
      '33 att entries',
      { att: Array.from({ length: 33 }, (_, i) => ({ resource: `chain:${i}`, action: 'read' })) },
      'TOO_LARGE',
    ],
    ['an empty action', { att: [{ resource: 'chain:*', action: '' }] }, 'MALFORMED'],
    ['the DFOS type', { type: 'DFOSCredential' }, 'MALFORMED'],
    ['a fractional exp', { exp: EXP + 0.5 }, 'MALFORMED'],
    ['a zero iat', { iat: 0 }, 'MALFORMED'],
    ['a dfos issuer', { iss: 'did:dfos:cnnnft9f8a2rn938d6nkz38r847v2kr' }, 'MALFORMED'],
    ['two parents', { prf: ['a', 'b'] }, 'MALFORMED'],
  ])('refuses a credential with %s', async (_name, change, code) => {
    const payload = {
      version: 1,
      type: 'PlatCredential',
      iss: root,
      aud: ids.did(1),
      att: chainRead,
      prf: [],
      exp: EXP,
      iat: IAT,
      ...change,
    };
    let cid = 'bafyreihp6omsp6icc6ee63ox2ovsaxm6s7ikd2a7k5eh2qz2qd5soh5bsa';
    try {
      cid = computeCid(payload).cid;
    } catch {
      /* float payloads have no CID */
    }
    const token = signJws(
      { typ: 'did:plat:credential', kid: `${root}#${ids.signer.keyId}`, cid },
      payload,
      ids.signer,
    );
    expect((await protocolErrorAsync(() => verifyCredential(token, options()))).code).toBe(code);
  });

  it('refuses a token over 256 KiB before decoding it', async () => {
    const token = 'e'.repeat(262145);
    expect((await protocolErrorAsync(() => verifyCredential(token, options()))).code).toBe('TOO_LARGE');
  });
});

describe('credentials: delegation chains', () => {
  it('verifies a 16-credential chain and refuses a 17-credential chain', async () => {
    const sixteen = delegationChain(16);
    const verified = await verifyCredential(
      sixteen.leaf,
      options({ expectedRoot: root, expectedAudience: sixteen.audience }),
    );
    expect(verified.chain).toHaveLength(16);
    expect(verified.rootIssuer).toBe(root);
    expect(verified.chain.map((c) => c.cid)).toEqual([...sixteen.cids].reverse());

    const seventeen = delegationChain(17);
    const error = await protocolErrorAsync(() => verifyCredential(seventeen.leaf, options()));
    expect(error.code).toBe('DELEGATION_TOO_DEEP');
    expect(error.message).toBe('delegation chain too deep');
  });

  it('checks revocation at every level: a revoked middle credential breaks the chain', async () => {
    const { leaf, cids } = delegationChain(3);
    const checked: string[] = [];
    const isRevoked = (cid: string) => {
      checked.push(cid);
      return cid === cids[1];
    };
    const error = await protocolErrorAsync(() => verifyCredential(leaf, options({ isRevoked })));
    expect(error.code).toBe('CREDENTIAL_REVOKED');
    expect(error.message).toContain(cids[1]);
    expect(checked).toEqual([cids[2], cids[1]]);
    const all: string[] = [];
    await verifyCredential(leaf, options({ isRevoked: (cid) => (all.push(cid), false) }));
    expect(all).toEqual([cids[2], cids[1], cids[0]]);
  });

  it('refuses an expired parent even when the leaf is valid', async () => {
    const parent = createCredential(
      { iss: root, aud: ids.did(1), att: chainRead, exp: NOW_S, iat: IAT },
      ids.signer,
    );
    const child = createCredential(
      { iss: ids.did(1), aud: ids.did(2), att: chainRead, prf: [parent.token], exp: NOW_S, iat: IAT },
      ids.signer,
    );
    expect((await protocolErrorAsync(() => verifyCredential(child.token, options()))).code).toBe(
      'CREDENTIAL_EXPIRED',
    );
  });

  function child(parentAtt: Attenuation[], childAtt: Attenuation[], childExp = EXP, issuer = ids.did(1)) {
    const parent = createCredential(
      { iss: root, aud: ids.did(1), att: parentAtt, exp: EXP, iat: IAT },
      ids.signer,
    );
    return createCredential(
      { iss: issuer, aud: ids.did(2), att: childAtt, prf: [parent.token], exp: childExp, iat: IAT },
      ids.signer,
    ).token;
  }

  it.each([
    [
      'a new resource',
      [{ resource: 'chain:a', action: 'read' }],
      [
        { resource: 'chain:a', action: 'read' },
        { resource: 'chain:b', action: 'read' },
      ],
    ],
    [
      'specific to wildcard',
      [{ resource: 'chain:a', action: 'read' }],
      [{ resource: 'chain:*', action: 'read' }],
    ],
    [
      'a new action',
      [{ resource: 'chain:a', action: 'read' }],
      [{ resource: 'chain:a', action: 'read,write' }],
    ],
    [
      'a differently cased action',
      [{ resource: 'chain:a', action: 'read' }],
      [{ resource: 'chain:a', action: 'Read' }],
    ],
    [
      'a cross-type resource',
      [{ resource: 'chain:*', action: 'read' }],
      [{ resource: 'mailbox:a', action: 'read' }],
    ],
    [
      'actions spread over two parent entries',
      [
        { resource: 'chain:a', action: 'read' },
        { resource: 'chain:*', action: 'write' },
      ],
      [{ resource: 'chain:a', action: 'read,write' }],
    ],
  ])('refuses attenuation widening: %s', async (_name, parentAtt, childAtt) => {
    const error = await protocolErrorAsync(() => verifyCredential(child(parentAtt, childAtt), options()));
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.message).toContain('widens');
  });

  it('accepts narrowing: wildcard to specific, fewer actions, reordered and padded actions', async () => {
    const token = child(
      [
        { resource: 'chain:*', action: 'read,write' },
        { resource: 'space:*', action: 'read:posts,write:posts' },
      ],
      [
        { resource: 'chain:a', action: ' write , read,' },
        { resource: 'space:did:plat:x', action: 'read:posts' },
      ],
    );
    await expect(verifyCredential(token, options())).resolves.toBeDefined();
  });

  it('refuses a child that outlives its parent', async () => {
    const error = await protocolErrorAsync(() =>
      verifyCredential(child(chainRead, chainRead, EXP + 1), options()),
    );
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.message).toContain('outlive');
  });

  it('refuses a child issued by someone the parent was not addressed to', async () => {
    const error = await protocolErrorAsync(() =>
      verifyCredential(child(chainRead, chainRead, EXP, ids.did(9)), options()),
    );
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.message).toContain('audience');
  });
});

describe('attenuation rules', () => {
  it.each([
    ['read', ['read']],
    ['read,', ['read']],
    [',read', ['read']],
    ['read,,read', ['read']],
    [' write , read ', ['read', 'write']],
    [',', []],
    ['*', ['*']],
  ])('canonicalizes %p', (action, tokens) => {
    expect([...canonicalActionSet(action)].sort()).toEqual(tokens);
  });

  it.each([
    ['chain:*', 'chain:abc', true],
    ['chain:*', 'chain:*', true],
    ['chain:abc', 'chain:abc', true],
    ['chain:abc', 'chain:*', false],
    ['chain:abc', 'chain:abd', false],
    ['space:*', 'space:did:plat:x', true],
    ['mailbox:*', 'mailbox:x', false],
    ['chain:*', 'space:x', false],
    ['*', 'chain:x', false],
  ])('resourceCovers(%p, %p) is %p under PLAT', (granted, requested, expected) => {
    expect(resourceCovers(granted, requested)).toBe(expected);
  });

  it('keeps the wildcard chain-only under the upstream brand', () => {
    expect(resourceCovers('space:*', 'space:x', DFOS_BRAND)).toBe(false);
    expect(resourceCovers('chain:*', 'chain:x', DFOS_BRAND)).toBe(true);
  });

  it('treats an empty action set as an inert bottom: attenuates anything, grants nothing', () => {
    const inert = [{ resource: 'chain:a', action: ',' }];
    expect(isAttenuationOf(inert, [{ resource: 'chain:a', action: 'read' }])).toBe(true);
    expect(attenuationsGrant(inert, { resource: 'chain:a', action: 'read' })).toBe(false);
    expect(
      attenuationsGrant([{ resource: 'chain:*', action: '*' }], { resource: 'chain:a', action: 'read' }),
    ).toBe(false);
  });
});
