import { base58btc } from 'multiformats/bases/base58';
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ChainInvalid,
  cidOf,
  decodeMultikey,
  IdentityState,
  idOfCid,
  verifyContentChain,
  verifyIdentityChain,
} from './chain-verifier';

/**
 * The black-box client's own verifier, proved on the protocol's reference vectors before it judges
 * an export: it accepts the valid chains with the expected state, and rejects each kind of
 * tampering, every forged operation signed with the reference keys so that only the rule under
 * test is broken.
 */
const VECTORS = '/work/shared/spec/protocol/vectors';
const vector = (name: string) =>
  JSON.parse(readFileSync(join(VECTORS, name), 'utf8')) as {
    chain: string[];
    expected: Record<string, unknown>;
    signerPublicKey?: string;
    documents?: { content: unknown }[];
  };

const genesis = vector('identity-genesis.json');
const rotation = vector('identity-rotation.json');
const content = vector('content-lifecycle.json');
const DID = 'did:dfos:cnnnft9f8a2rn938d6nkz38r847v2kr';
const KEY1 = 'key_r9ev34fvc23z999veaaft83nn29zvhe';
const KEY2 = 'key_ez9a874tckr3dv933d3ckdn7z6zrct8';

/** The reference private keys: seed = SHA-256("dfos-protocol-reference-key-N") (PROTOCOL.md). */
function referenceKey(n: number) {
  const seed = createHash('sha256').update(`dfos-protocol-reference-key-${n}`).digest();
  const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
  return createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
}

/** Signs an operation as PROTOCOL.md "JWS Envelope Format" says (the cid header computed unless given). */
function signOp(
  payload: Record<string, unknown>,
  options: { typ: string; kid: string; key: number; header?: Record<string, unknown> },
): string {
  const header = {
    alg: 'EdDSA',
    typ: options.typ,
    kid: options.kid,
    cid: cidOf(payload).cid,
    ...options.header,
  };
  const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(
    JSON.stringify(payload),
  ).toString('base64url')}`;
  return `${input}.${sign(null, Buffer.from(input), referenceKey(options.key)).toString('base64url')}`;
}

const identityOp = (payload: Record<string, unknown>, key = 2, header?: Record<string, unknown>) =>
  signOp(payload, { typ: 'did:dfos:identity-op', kid: `${DID}#${key === 1 ? KEY1 : KEY2}`, key, header });
const contentOp = (payload: Record<string, unknown>, key = 2, header?: Record<string, unknown>) =>
  signOp(payload, { typ: 'did:dfos:content-op', kid: `${DID}#${key === 1 ? KEY1 : KEY2}`, key, header });

const payloadOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
const cidOfToken = (token: string) => cidOf(payloadOf(token)).cid;

const rejects = (run: () => unknown, reason: RegExp) => {
  expect(run).toThrow(ChainInvalid);
  expect(run).toThrow(reason);
};

describe('black-box chain verifier on the reference vectors', () => {
  const rotated = () => verifyIdentityChain(rotation.chain, DID);
  const resolver = (state: IdentityState) => (did: string) => (did === state.did ? state : undefined);
  const head = rotation.chain[rotation.chain.length - 1];

  it('derives the reference encodings: number vector, multikey, DID', () => {
    const cbor = cidOf({ version: 1, type: 'test' });
    expect(cbor.cid).toBe('bafyreihp6omsp6icc6ee63ox2ovsaxm6s7ikd2a7k5eh2qz2qd5soh5bsa');
    expect(cbor.size).toBe(20);
    expect(decodeMultikey('z6MkrzLMNwoJSV4P3YccWcbtk8vd9LtgMKnLeaDLUqLuASjb').toString('hex')).toBe(
      'ba421e272fad4f941c221e47f87d9253bdc04f7d4ad2625ae667ab9f0688ce32',
    );
    expect(
      idOfCid(Buffer.from('017112204e31ea9cb6ab4516ebdd812f7937e61601db07a16afb45723d286906f5181b69', 'hex')),
    ).toBe('cnnnft9f8a2rn938d6nkz38r847v2kr');
    // A fractional number has no canonical encoding.
    expect(() => cidOf({ version: 1.5 })).toThrow(ChainInvalid);
  });

  it('accepts the valid identity vectors with their expected state', () => {
    for (const [v, keyId] of [
      [genesis, KEY1],
      [rotation, KEY2],
    ] as const) {
      const state = verifyIdentityChain(v.chain, v.expected.did as string);
      expect(state.did).toBe(v.expected.did);
      expect(state.isDeleted).toBe(v.expected.isDeleted);
      expect(state.controllerKeys).toEqual(v.expected.controllerKeys);
      expect(state.controllerKeys[0].id).toBe(keyId);
    }
  });

  it('accepts the valid content vector with its expected state and documents', () => {
    const state = verifyContentChain(content.chain, resolver(rotated()));
    expect(state).toMatchObject({
      contentId: content.expected.contentId,
      isDeleted: content.expected.isDeleted,
      currentDocumentCID: content.expected.currentDocumentCID,
      length: content.expected.length,
    });
    const documents = content.documents!.map((document) => cidOf(document.content).cid);
    expect(documents).toEqual([
      payloadOf(content.chain[0]).documentCID,
      payloadOf(content.chain[1]).documentCID,
    ]);
  });

  it('reproduces PROTOCOL.md’s delete and restore operations and accepts the chain through them', () => {
    const del = identityOp({
      version: 1,
      type: 'delete',
      previousOperationCID: cidOfToken(head),
      createdAt: '2026-03-07T00:02:00.000Z',
    });
    expect(cidOfToken(del)).toBe('bafyreicl3a2t6vhz5vgvs5ojdw5wcwgoz3taxqqwexpbpltm2gh3q42zyi');
    const restore = identityOp({
      version: 1,
      type: 'restore',
      previousOperationCID: cidOfToken(del),
      createdAt: '2026-03-07T00:03:00.000Z',
    });
    expect(cidOfToken(restore)).toBe('bafyreieyavue6vxzt63ulkqpwetfwqvfzdkeq6t3q3gwrjnqghmijrgyba');
    // The reference signature (Ed25519 is deterministic).
    expect(Buffer.from(restore.split('.')[2], 'base64url').toString('hex')).toBe(
      '9552998f7e081a6c9ffb4527ed310b48f3f78b9ee058c7bc8f9778774ea016787caf88697f9ff5547314af0c24b7b0859d671de148b809d7973ca4bc8e921e02',
    );
    expect(verifyIdentityChain([...rotation.chain, del], DID).isDeleted).toBe(true);
    const back = verifyIdentityChain([...rotation.chain, del, restore], DID);
    expect([back.isDeleted, back.length, back.headCid]).toEqual([false, 4, cidOfToken(restore)]);
  });

  it('rejects tampered and invalid identity chains', () => {
    const [g, u] = rotation.chain;
    const parts = u.split('.');
    const flipped = Buffer.from(parts[2], 'base64url');
    flipped[5] ^= 1;
    rejects(
      () => verifyIdentityChain([g, [parts[0], parts[1], flipped.toString('base64url')].join('.')]),
      /bad signature/,
    );
    // Another DID than the one the genesis derives; a chain without its genesis; reordered.
    rejects(() => verifyIdentityChain(genesis.chain, 'did:dfos:2222222222222222222222222222222'), /derives/);
    rejects(() => verifyIdentityChain([u]), /genesis is not a create/);
    rejects(() => verifyIdentityChain([g, g]), /previousOperationCID/);
    // A payload swapped under the signed header: the cid header no longer matches.
    const otherPayload = genesis.chain[0].split('.')[1];
    rejects(() => verifyIdentityChain([g, [parts[0], otherPayload, parts[2]].join('.')]), /cid header/);
    const previous = cidOfToken(u);
    const at = (minute: string) => `2026-03-07T00:${minute}:00.000Z`;
    // Signed by a key rotated out (key 1 after the rotation to key 2).
    rejects(
      () =>
        verifyIdentityChain([
          g,
          u,
          identityOp({ version: 1, type: 'delete', previousOperationCID: previous, createdAt: at('05') }, 1),
        ]),
      /not in the current state/,
    );
    // createdAt not after the parent; outside the grammar.
    rejects(
      () =>
        verifyIdentityChain([
          g,
          u,
          identityOp({ version: 1, type: 'delete', previousOperationCID: previous, createdAt: at('01') }),
        ]),
      /createdAt not after/,
    );
    rejects(
      () =>
        verifyIdentityChain([
          g,
          u,
          identityOp({
            version: 1,
            type: 'delete',
            previousOperationCID: previous,
            createdAt: '2026-03-07T00:05:00Z',
          }),
        ]),
      /grammar/,
    );
    // A restore that follows no delete; an update after a delete.
    rejects(
      () =>
        verifyIdentityChain([
          g,
          u,
          identityOp({ version: 1, type: 'restore', previousOperationCID: previous, createdAt: at('05') }),
        ]),
      /restore whose parent is not a delete/,
    );
    const del = identityOp({
      version: 1,
      type: 'delete',
      previousOperationCID: previous,
      createdAt: at('05'),
    });
    const keys = payloadOf(u);
    rejects(
      () =>
        verifyIdentityChain([
          g,
          u,
          del,
          identityOp({ ...keys, previousOperationCID: cidOfToken(del), createdAt: at('06') }),
        ]),
      /update after a delete/,
    );
    // Header profile: another alg, a crit member, an embedded key, version 2.
    for (const [header, reason] of [
      [{ alg: 'none' }, /alg/],
      [{ crit: ['x'] }, /crit/],
      [{ jwk: {} }, /jwk/],
    ] as const) {
      rejects(
        () =>
          verifyIdentityChain([
            g,
            u,
            identityOp(
              { version: 1, type: 'delete', previousOperationCID: previous, createdAt: at('05') },
              2,
              header,
            ),
          ]),
        reason,
      );
    }
    rejects(
      () =>
        verifyIdentityChain([
          g,
          u,
          identityOp({ version: 2, type: 'delete', previousOperationCID: previous, createdAt: at('05') }),
        ]),
      /version/,
    );
  });

  it('rejects tampered and invalid content chains', () => {
    const state = rotated();
    const resolve = resolver(state);
    const [create, update] = content.chain;
    const createCid = cidOfToken(create);
    const documentCID = payloadOf(update).documentCID as string;
    const base = { version: 1, did: DID, baseDocumentCID: null };
    // Signed by a key the signer no longer holds; by an unknown DID.
    rejects(
      () =>
        verifyContentChain(
          [
            create,
            contentOp(
              {
                ...base,
                type: 'update',
                previousOperationCID: createCid,
                documentCID,
                createdAt: '2026-03-07T00:04:00.000Z',
              },
              1,
            ),
          ],
          resolve,
        ),
      /not in the current state/,
    );
    rejects(() => verifyContentChain(content.chain, () => undefined), /unresolved/);
    // The payload's did not the kid's; a link to nothing; an operation after a delete.
    rejects(
      () =>
        verifyContentChain(
          [
            create,
            contentOp({
              ...base,
              did: 'did:dfos:2222222222222222222222222222222',
              type: 'update',
              previousOperationCID: createCid,
              documentCID,
              createdAt: '2026-03-07T00:04:00.000Z',
            }),
          ],
          resolve,
        ),
      /payload did/,
    );
    rejects(
      () =>
        verifyContentChain(
          [
            create,
            contentOp({
              ...base,
              type: 'update',
              previousOperationCID: documentCID,
              documentCID,
              createdAt: '2026-03-07T00:04:00.000Z',
            }),
          ],
          resolve,
        ),
      /names no earlier operation/,
    );
    const del = contentOp({
      version: 1,
      did: DID,
      type: 'delete',
      previousOperationCID: cidOfToken(update),
      createdAt: '2026-03-07T00:04:00.000Z',
    });
    expect(verifyContentChain([create, update, del], resolve).isDeleted).toBe(true);
    rejects(
      () =>
        verifyContentChain(
          [
            create,
            update,
            del,
            contentOp({
              ...base,
              type: 'update',
              previousOperationCID: cidOfToken(del),
              documentCID,
              createdAt: '2026-03-07T00:05:00.000Z',
            }),
          ],
          resolve,
        ),
      /after a delete/,
    );
    // A fork is valid; the head is the later tip.
    const fork = contentOp({
      ...base,
      type: 'update',
      previousOperationCID: createCid,
      documentCID: null,
      createdAt: '2026-03-07T00:04:00.000Z',
    });
    const forked = verifyContentChain([create, update, fork], resolve);
    expect([forked.headCid, forked.currentDocumentCID, forked.length]).toEqual([cidOfToken(fork), null, 3]);
    // A create without baseDocumentCID (PROTOCOL.md's schema: `string | null`, not optional).
    const bare = contentOp({
      version: 1,
      did: DID,
      type: 'create',
      documentCID,
      createdAt: '2026-03-07T00:04:00.000Z',
    });
    rejects(() => verifyContentChain([bare], resolve), /baseDocumentCID missing/);
    // An identity operation is not a content operation.
    rejects(() => verifyContentChain([rotation.chain[1]], resolve), /typ/);
    // Another identity writes: refused without the creator's write credential, accepted with one.
    const key3 = referenceKey(3);
    const multikey = base58btc.encode(
      Buffer.concat([
        Buffer.from([0xed, 0x01]),
        Buffer.from(key3.export({ format: 'jwk' }).x as string, 'base64url'),
      ]),
    );
    const keys3 = [{ id: 'key_3', type: 'Multikey', publicKeyMultibase: multikey }];
    const genesis3 = signOp(
      {
        version: 1,
        type: 'create',
        authKeys: keys3,
        assertKeys: keys3,
        controllerKeys: keys3,
        createdAt: '2026-03-07T00:00:00.000Z',
      },
      { typ: 'did:dfos:identity-op', kid: 'key_3', key: 3 },
    );
    const writer = verifyIdentityChain([genesis3]);
    const both = (did: string) => (did === DID ? state : did === writer.did ? writer : undefined);
    const delegated = (authorization?: string) =>
      signOp(
        {
          ...base,
          did: writer.did,
          type: 'update',
          previousOperationCID: cidOfToken(update),
          documentCID,
          createdAt: '2026-03-07T00:04:00.000Z',
          ...(authorization ? { authorization } : {}),
        },
        { typ: 'did:dfos:content-op', kid: `${writer.did}#key_3`, key: 3 },
      );
    rejects(() => verifyContentChain([create, update, delegated()], both), /without an authorization/);
    const contentId = content.expected.contentId as string;
    const credential = (resource: string) =>
      signOp(
        {
          version: 1,
          type: 'DFOSCredential',
          iss: DID,
          aud: writer.did,
          att: [{ resource, action: 'write' }],
          prf: [],
          exp: 1798761600,
          iat: 1772841600,
        },
        { typ: 'did:dfos:credential', kid: `${DID}#${KEY2}`, key: 2 },
      );
    expect(
      verifyContentChain([create, update, delegated(credential(`chain:${contentId}`))], both).length,
    ).toBe(3);
    rejects(
      () =>
        verifyContentChain(
          [create, update, delegated(credential('chain:8n8fnzhrrefkrde6h72kfvff43r8c62'))],
          both,
        ),
      /does not grant write/,
    );
  });
});
