import {
  applyContentOperation,
  computeCid,
  contentChainState,
  createCredential,
  createRevocation,
  decodeContentOperation,
  DFOS_BRAND,
  documentCid,
  generateKeySigner,
  selectHead,
  signContentOperation,
  signJws,
  verifyContentChain,
  verifyRevocation,
  type Attenuation,
  type ContentOperation,
  type ContentVerifyOptions,
  type KeySigner,
} from '../../../src/protocol/core';
import {
  headerOf,
  Identities,
  loadVector,
  payloadOf,
  protocolError,
  protocolErrorAsync,
  referenceKey,
} from './helpers';

const T = (minute: number) => `2026-03-07T00:${String(minute).padStart(2, '0')}:00.000Z`;
const seconds = (createdAt: string) => Math.floor(Date.parse(createdAt) / 1000);
const NOW = new Date('2026-03-07T12:00:00.000Z');
const DOC = (n: number) => documentCid({ $schema: 'https://schemas.plat.example/post/v1', body: `doc ${n}` });

const ids = new Identities();
const creatorKey = generateKeySigner();
const delegateKey = generateKeySigner();
const creator = ids.did(1, creatorKey);
const delegate = ids.did(2, delegateKey);
const strangerKey = generateKeySigner();
const stranger = ids.did(3, strangerKey);

function options(overrides: Partial<ContentVerifyOptions> = {}): ContentVerifyOptions {
  return { resolveKey: ids.resolve, isRevoked: () => false, ...overrides };
}

function sign(op: object, signer: KeySigner = creatorKey): string {
  return signContentOperation(op as ContentOperation, signer).jws;
}

function create(createdAt = T(0), documentCID = DOC(0)): string {
  return sign({ version: 1, type: 'create', did: creator, documentCID, baseDocumentCID: null, createdAt });
}

function update(
  previous: string,
  createdAt: string,
  extra: object = {},
  signer: KeySigner = creatorKey,
  did = creator,
): string {
  return sign(
    {
      version: 1,
      type: 'update',
      did,
      previousOperationCID: headerOf(previous).cid,
      documentCID: DOC(seconds(createdAt)),
      baseDocumentCID: null,
      createdAt,
      ...extra,
    },
    signer,
  );
}

function remove(previous: string, createdAt: string): string {
  return sign({
    version: 1,
    type: 'delete',
    did: creator,
    previousOperationCID: headerOf(previous).cid,
    createdAt,
  });
}

describe('content chain: reference vector (dfos brand)', () => {
  const vector = loadVector<{
    chain: string[];
    signerPublicKey: string;
    documents: { content: object }[];
    expected: { contentId: string; isDeleted: boolean; currentDocumentCID: string; length: number };
  }>('content-lifecycle.json');

  it('verifies create + update with the expected content id, head and document', async () => {
    const { state, records } = await verifyContentChain(vector.chain, {
      resolveKey: () => vector.signerPublicKey,
      isRevoked: () => false,
      brand: DFOS_BRAND,
    });
    expect(state.contentId).toBe(vector.expected.contentId);
    expect(state.isDeleted).toBe(vector.expected.isDeleted);
    expect(state.currentDocumentCID).toBe(vector.expected.currentDocumentCID);
    expect(state.length).toBe(vector.expected.length);
    expect(state.genesisCid).toBe('bafyreibs3vlvainfjfuet6x4uds3pivbmbohy7f64iegbuw3gpsuqtma6i');
    expect(state.headCid).toBe('bafyreied5cjgjjt2pdz52k6pgipcjg3i4xl7txbrbdedscejvqhtgltxdi');
    expect(state.creatorDid).toBe('did:dfos:cnnnft9f8a2rn938d6nkz38r847v2kr');
    expect(records.map((r) => r.documentCID)).toEqual(vector.documents.map((d) => documentCid(d.content)));
  });

  it('keeps the operation CIDs when only the typ is renamed; a plat verifier refuses the did:dfos payload', () => {
    for (const token of vector.chain) {
      const payload = payloadOf(token);
      const resigned = signJws(
        { typ: 'did:plat:content-op', kid: headerOf(token).kid as string, cid: computeCid(payload).cid },
        payload,
        referenceKey(2),
      );
      expect(headerOf(resigned).cid).toBe(headerOf(token).cid);
      expect(protocolError(() => decodeContentOperation(resigned)).code).toBe('MALFORMED');
    }
  });

  it('re-signed with did:plat payloads verifies; documents keep their CIDs, op CIDs change with the did', async () => {
    const key = referenceKey(2);
    const did = 'did:plat:cnnnft9f8a2rn938d6nkz38r847v2kr';
    const resigned: string[] = [];
    for (const token of vector.chain) {
      const payload = { ...payloadOf(token), did } as Record<string, unknown>;
      if (payload.previousOperationCID)
        payload.previousOperationCID = headerOf(resigned[resigned.length - 1]).cid;
      resigned.push(signContentOperation(payload as unknown as ContentOperation, key).jws);
    }
    const { state } = await verifyContentChain(resigned, {
      resolveKey: () => key.publicKey,
      isRevoked: () => false,
    });
    expect(state.currentDocumentCID).toBe(vector.expected.currentDocumentCID);
    expect(state.creatorDid).toBe(did);
    expect(state.length).toBe(2);
    expect(state.contentId).not.toBe(vector.expected.contentId);
  });
});

describe('content chain: DAG and head selection', () => {
  it('selects the highest createdAt tip, then the highest CID, regardless of log order', async () => {
    const g = create();
    const a = update(g, T(1), { documentCID: DOC(101) });
    const b = update(g, T(1), { documentCID: DOC(102) });
    const expectedHead = [headerOf(a).cid as string, headerOf(b).cid as string].sort()[1];
    const one = await verifyContentChain([g, a, b], options());
    const two = await verifyContentChain([g, b, a], options());
    expect(one.state.headCid).toBe(expectedHead);
    expect(two.state.headCid).toBe(expectedHead);
    expect(one.state.length).toBe(3);
  });

  it('orders timestamps per branch: a fork may be older than the other branch but not than its parent', async () => {
    const g = create();
    const a = update(g, T(1));
    const b = update(g, T(5));
    const a2 = update(a, T(2)); // earlier than b, later than its own parent a
    const { state } = await verifyContentChain([g, a, b, a2], options());
    expect(state.headCid).toBe(headerOf(b).cid);
    const stale = update(a, T(1));
    expect((await protocolErrorAsync(() => verifyContentChain([g, a, stale], options()))).code).toBe(
      'TIMESTAMP_ORDER',
    );
  });

  it('seals a branch at a delete, while a fork from before the delete stays open and can win the head', async () => {
    const g = create();
    const a = update(g, T(1));
    const del = remove(a, T(2));
    let result = await verifyContentChain([g, a, del], options());
    expect(result.state).toMatchObject({
      isDeleted: true,
      currentDocumentCID: null,
      headCid: headerOf(del).cid,
    });

    const afterDelete = update(del, T(3));
    expect(
      (await protocolErrorAsync(() => verifyContentChain([g, a, del, afterDelete], options()))).code,
    ).toBe('CHAIN_INVALID');

    const fork = update(a, T(4));
    result = await verifyContentChain([g, a, del, fork], options());
    expect(result.state).toMatchObject({
      isDeleted: false,
      headCid: headerOf(fork).cid,
      currentDocumentCID: DOC(seconds(T(4))),
    });
  });

  it('clears the document with documentCID null and continues the chain', async () => {
    const g = create();
    const cleared = update(g, T(1), { documentCID: null });
    const { state } = await verifyContentChain([g, cleared], options());
    expect(state).toMatchObject({ isDeleted: false, currentDocumentCID: null });
  });

  it('refuses malformed logs: no genesis first, two creates, unknown parent, repeated op', async () => {
    const g = create();
    const a = update(g, T(1));
    const otherGenesis = create(T(0), DOC(7));
    const orphan = update(otherGenesis, T(1));
    for (const log of [
      [a, g],
      [g, otherGenesis],
      [g, orphan],
      [g, a, a],
    ]) {
      expect((await protocolErrorAsync(() => verifyContentChain(log, options()))).code).toBe('CHAIN_INVALID');
    }
  });

  it('selectHead breaks createdAt ties by the byte-wise larger CID', () => {
    const records = [
      { cid: 'bafyreia', createdAt: T(0), previousCid: null },
      { cid: 'bafyreib', createdAt: T(1), previousCid: 'bafyreia' },
      { cid: 'bafyreic', createdAt: T(1), previousCid: 'bafyreia' },
      { cid: 'bafyreiz', createdAt: T(0), previousCid: 'bafyreia' }, // impossible in a valid chain, still a tip
    ];
    expect(selectHead(records).cid).toBe('bafyreic');
  });
});

describe('content chain: signer rules and creator sovereignty', () => {
  const writeAtt = (contentId: string): Attenuation[] => [
    { resource: `chain:${contentId}`, action: 'write' },
  ];

  async function genesis() {
    const g = create();
    const { chain, record } = await applyContentOperation(null, g, { ...options(), now: NOW });
    return { g, chain, record };
  }

  function grant(contentId: string, overrides: Partial<Parameters<typeof createCredential>[0]> = {}) {
    return createCredential(
      {
        iss: creator,
        aud: delegate,
        att: writeAtt(contentId),
        exp: seconds(T(30)),
        iat: seconds(T(0)),
        ...overrides,
      },
      creatorKey,
    );
  }

  it('refuses a kid DID that differs from the payload did (a countersignature, not a chain op)', async () => {
    const { chain, record } = await genesis();
    const op = {
      version: 1,
      type: 'update',
      did: creator,
      previousOperationCID: record.cid,
      documentCID: null,
      createdAt: T(1),
    };
    const token = signJws(
      { typ: 'did:plat:content-op', kid: `${delegate}#${delegateKey.keyId}`, cid: computeCid(op).cid },
      op,
      delegateKey,
    );
    const error = await protocolErrorAsync(() =>
      applyContentOperation({ chain, parent: record }, token, { ...options(), now: NOW }),
    );
    expect(error.code).toBe('KID_INVALID');
  });

  it('refuses a non-creator signer without authorization, unless enforcement is off', async () => {
    const { chain, record } = await genesis();
    const token = update(record.jws, T(1), {}, delegateKey, delegate);
    const error = await protocolErrorAsync(() =>
      applyContentOperation({ chain, parent: record }, token, { ...options(), now: NOW }),
    );
    expect(error.code).toBe('UNAUTHORIZED');
    const lax = await applyContentOperation({ chain, parent: record }, token, {
      ...options({ enforceAuthorization: false }),
      now: NOW,
    });
    expect(lax.record.signerDid).toBe(delegate);
  });

  it('accepts a delegate carrying a write credential from the creator, judged at the op createdAt', async () => {
    const { chain, record } = await genesis();
    const credential = grant(chain.contentId);
    const token = update(record.jws, T(1), { authorization: credential.token }, delegateKey, delegate);
    // the wall clock (NOW) is after exp: ingest must still judge expiry at the op's own createdAt
    const applied = await applyContentOperation({ chain, parent: record }, token, { ...options(), now: NOW });
    expect(applied.record.credentialCid).toBe(credential.cid);
    expect(contentChainState(chain, [record, applied.record]).headCid).toBe(applied.record.cid);
    expect(NOW.getTime() / 1000).toBeGreaterThan(credential.payload.exp);
  });

  it('accepts chain:* and refuses read-only, other-chain, expired, misaddressed and foreign-rooted credentials', async () => {
    const { chain, record } = await genesis();
    const attempt = async (authorization: string, createdAt = T(1)) => {
      const token = update(record.jws, createdAt, { authorization }, delegateKey, delegate);
      return applyContentOperation({ chain, parent: record }, token, { ...options(), now: NOW });
    };
    await expect(
      attempt(grant(chain.contentId, { att: [{ resource: 'chain:*', action: 'read,write' }] }).token),
    ).resolves.toBeDefined();
    const cases: [string, string, string][] = [
      [
        'read-only',
        grant(chain.contentId, { att: [{ resource: `chain:${chain.contentId}`, action: 'read' }] }).token,
        'UNAUTHORIZED',
      ],
      ['other chain', grant('8n8fnzhrrefkrde6h72kfvff43r8c63').token, 'UNAUTHORIZED'],
      ['expired at createdAt', grant(chain.contentId, { exp: seconds(T(1)) }).token, 'CREDENTIAL_EXPIRED'],
      ['addressed to someone else', grant(chain.contentId, { aud: stranger }).token, 'UNAUTHORIZED'],
      ['public audience', grant(chain.contentId, { aud: '*' }).token, 'UNAUTHORIZED'],
      [
        'rooted at another DID',
        createCredential(
          {
            iss: stranger,
            aud: delegate,
            att: writeAtt(chain.contentId),
            exp: seconds(T(30)),
            iat: seconds(T(0)),
          },
          strangerKey,
        ).token,
        'UNAUTHORIZED',
      ],
    ];
    for (const [name, authorization, code] of cases) {
      const error = await protocolErrorAsync(() => attempt(authorization));
      expect([name, error.code]).toEqual([name, code]);
    }
  });

  it('refuses a delegated op whose credential has been revoked (timeless at ingest, as-of on replay)', async () => {
    const { chain, record } = await genesis();
    const credential = grant(chain.contentId);
    const revocation = await verifyRevocation(
      createRevocation({ did: creator, credentialCID: credential.cid, createdAt: T(2) }, creatorKey).token,
      { resolveKey: ids.resolve, expectedIssuer: creator, expectedCredentialCid: credential.cid },
    );
    const revoked = new Map([[`${creator} ${credential.cid}`, revocation.payload.createdAt]]);
    const isRevoked = (cid: string, issuer: string, asOf?: string) => {
      const at = revoked.get(`${issuer} ${cid}`);
      return at !== undefined && (asOf === undefined || at <= asOf);
    };
    const token = update(record.jws, T(1), { authorization: credential.token }, delegateKey, delegate);
    // acceptance: any known revocation refuses the op, whatever its createdAt
    const error = await protocolErrorAsync(() =>
      applyContentOperation({ chain, parent: record }, token, { ...options({ isRevoked }), now: NOW }),
    );
    expect(error.code).toBe('CREDENTIAL_REVOKED');
    // validity of committed history: the op (T1) predates the revocation (T2), so it still verifies
    const history = await verifyContentChain(
      [record.jws, token],
      options({ isRevoked, revocationAsOf: true }),
    );
    expect(history.state.length).toBe(2);
  });

  it('binds authorization credentials to a host when the deployment asks for it', async () => {
    const { chain, record } = await genesis();
    const token = update(
      record.jws,
      T(1),
      { authorization: grant(chain.contentId).token },
      delegateKey,
      delegate,
    );
    const error = await protocolErrorAsync(() =>
      applyContentOperation({ chain, parent: record }, token, {
        ...options({ credentialHost: 'api.plat.example' }),
        now: NOW,
      }),
    );
    expect(error.code).toBe('UNAUTHORIZED');
  });

  it("refuses a parent that is not the op's previousOperationCID and a create as an extension", async () => {
    const { chain, record } = await genesis();
    const a = update(record.jws, T(1));
    const applied = await applyContentOperation({ chain, parent: record }, a, { ...options(), now: NOW });
    const b = update(a, T(2));
    expect(
      (
        await protocolErrorAsync(() =>
          applyContentOperation({ chain, parent: record }, b, { ...options(), now: NOW }),
        )
      ).code,
    ).toBe('CHAIN_INVALID');
    expect(
      (
        await protocolErrorAsync(() =>
          applyContentOperation({ chain, parent: applied.record }, create(T(3)), { ...options(), now: NOW }),
        )
      ).code,
    ).toBe('CHAIN_INVALID');
  });

  it('refuses ops dated more than 24 h after the ingest clock', async () => {
    const { chain, record } = await genesis();
    const far = update(record.jws, '2026-03-08T12:00:00.001Z');
    expect(
      (
        await protocolErrorAsync(() =>
          applyContentOperation({ chain, parent: record }, far, { ...options(), now: NOW }),
        )
      ).code,
    ).toBe('TIMESTAMP_FUTURE');
    const edge = update(record.jws, '2026-03-08T12:00:00.000Z');
    await expect(
      applyContentOperation({ chain, parent: record }, edge, { ...options(), now: NOW }),
    ).resolves.toBeDefined();
  });
});

describe('content operation validation and size cap', () => {
  it('refuses an op over 64 KiB of dag-cbor', () => {
    const token = sign({
      version: 1,
      type: 'create',
      did: creator,
      documentCID: DOC(0),
      baseDocumentCID: null,
      createdAt: T(0),
      pad: 'x'.repeat(65536),
    });
    expect(protocolError(() => decodeContentOperation(token)).code).toBe('TOO_LARGE');
  });

  it('measures the cap without the authorization credential (a deep delegation chain exceeds 64 KiB)', async () => {
    const g = create();
    const { chain, record } = await applyContentOperation(null, g, { ...options(), now: NOW });
    // 32 wide attenuations per level, each level embedding its parent: grows past 64 KiB in ~11 hops
    const att = Array.from({ length: 32 }, (_, i) => ({
      resource: `chain:${chain.contentId}`,
      action: `write,${'p'.repeat(60)}${i}`,
    }));
    let token = '';
    let level = 0;
    let issuer = creator;
    let issuerKey = creatorKey;
    while (token.length <= 70000) {
      level += 1;
      const holderKey = generateKeySigner();
      const holder = ids.did(1000 + level, holderKey);
      token = createCredential(
        { iss: issuer, aud: holder, att, prf: token ? [token] : [], exp: seconds(T(30)), iat: seconds(T(0)) },
        issuerKey,
      ).token;
      issuer = holder;
      issuerKey = holderKey;
    }
    expect(level).toBeLessThanOrEqual(16);
    const op = update(g, T(1), { authorization: token }, issuerKey, issuer);
    expect(computeCid(payloadOf(op)).encoded.length).toBeGreaterThan(65536);
    const applied = await applyContentOperation({ chain, parent: record }, op, { ...options(), now: NOW });
    expect(applied.record.credentialCid).toBeDefined();
  });

  it.each([
    ['version 2', { version: 2 }],
    ['a dfos did', { did: 'did:dfos:cnnnft9f8a2rn938d6nkz38r847v2kr' }],
    ['a non-CID documentCID', { documentCID: 'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG' }],
    ['a null documentCID on create', { documentCID: null }],
    ['a bad baseDocumentCID', { baseDocumentCID: 'x' }],
    ['a bad createdAt', { createdAt: '2026-03-07T00:00:00.000+00:00' }],
    ['an unknown type', { type: 'append' }],
  ])('refuses a create with %s', (_name, change) => {
    const payload = {
      version: 1,
      type: 'create',
      did: creator,
      documentCID: DOC(0),
      baseDocumentCID: null,
      createdAt: T(0),
      ...change,
    };
    const token = signJws(
      { typ: 'did:plat:content-op', kid: `${creator}#${creatorKey.keyId}`, cid: computeCid(payload).cid },
      payload,
      creatorKey,
    );
    expect(protocolError(() => decodeContentOperation(token)).code).toBe('MALFORMED');
  });

  it('refuses a content op under the identity-op typ', () => {
    const payload = {
      version: 1,
      type: 'create',
      did: creator,
      documentCID: DOC(0),
      baseDocumentCID: null,
      createdAt: T(0),
    };
    const token = signJws(
      { typ: 'did:plat:identity-op', kid: `${creator}#${creatorKey.keyId}`, cid: computeCid(payload).cid },
      payload,
      creatorKey,
    );
    expect(protocolError(() => decodeContentOperation(token)).code).toBe('JWS_PROFILE');
  });
});
