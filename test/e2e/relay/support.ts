import request from 'supertest';
import {
  contentIdFromGenesisCid,
  createCredential,
  createRevocation,
  documentCid,
  formatCreatedAt,
  generateKeySigner,
  multikeyEntry,
  signContentOperation,
  signIdentityOperation,
  type Attenuation,
  type KeySigner,
  type MultikeyPublicKey,
  type ServiceEntry,
} from '../../../src/protocol/core';
import { bootApp, BootOptions, TestApp } from '../../support/app';

export const NOT_FOUND_BODY = '{"code":"E_NOT_FOUND","message":"Not found"}';

/** The real AppModule; budgets are not what these tests are about. */
export function bootRelayApp(options: BootOptions = {}): Promise<TestApp> {
  return bootApp({ ...options, env: { RATE_LIMIT_DISABLED: 'true', ...options.env } });
}

/** Strictly increasing createdAt values, a second apart, starting an hour ago. */
let clockMs = Date.now() - 3_600_000;
export function createdAt(): string {
  clockMs += 1000;
  return formatCreatedAt(new Date(clockMs));
}

export interface KeySets {
  authKeys: MultikeyPublicKey[];
  assertKeys: MultikeyPublicKey[];
  controllerKeys: MultikeyPublicKey[];
}

export const allRoles = (...signers: KeySigner[]): KeySets => {
  const keys = signers.map((signer) => multikeyEntry(signer));
  return { authKeys: keys, assertKeys: keys, controllerKeys: keys };
};

/** A test identity whose ops we sign locally; `head` follows what we signed. */
export class TestIdentity {
  did = '';
  head = '';
  readonly genesis: string;

  constructor(
    readonly signer: KeySigner = generateKeySigner(),
    options: { keys?: KeySets; services?: ServiceEntry[] } = {},
  ) {
    const signed = signIdentityOperation(
      {
        version: 1,
        type: 'create',
        ...(options.keys ?? allRoles(signer)),
        ...(options.services ? { services: options.services } : {}),
        createdAt: createdAt(),
      },
      signer,
    );
    this.did = signed.did;
    this.head = signed.cid;
    this.genesis = signed.jws;
  }

  /** An update from `previous` (default: our head) signed by `signer`; advances `head`. */
  update(
    keys: KeySets,
    options: { signer?: KeySigner; previous?: string; services?: ServiceEntry[]; advance?: boolean } = {},
  ): { jws: string; cid: string } {
    const signed = signIdentityOperation(
      {
        version: 1,
        type: 'update',
        previousOperationCID: options.previous ?? this.head,
        ...keys,
        ...(options.services ? { services: options.services } : {}),
        createdAt: createdAt(),
      },
      options.signer ?? this.signer,
      { did: this.did },
    );
    if (options.advance !== false) this.head = signed.cid;
    return signed;
  }

  delete(): { jws: string; cid: string } {
    const signed = signIdentityOperation(
      { version: 1, type: 'delete', previousOperationCID: this.head, createdAt: createdAt() },
      this.signer,
      { did: this.did },
    );
    this.head = signed.cid;
    return signed;
  }

  /** A content chain genesis by this identity. */
  createContent(document: object, signer: KeySigner = this.signer) {
    const signed = signContentOperation(
      {
        version: 1,
        type: 'create',
        did: this.did,
        documentCID: documentCid(document),
        createdAt: createdAt(),
      },
      signer,
    );
    return { ...signed, contentId: contentIdFromGenesisCid(signed.cid) };
  }

  updateContent(
    previous: string,
    document: object | null,
    options: { signer?: KeySigner; createdAt?: string; authorization?: string; did?: string } = {},
  ) {
    return signContentOperation(
      {
        version: 1,
        type: 'update',
        did: options.did ?? this.did,
        previousOperationCID: previous,
        documentCID: document === null ? null : documentCid(document),
        createdAt: options.createdAt ?? createdAt(),
        ...(options.authorization ? { authorization: options.authorization } : {}),
      },
      options.signer ?? this.signer,
    );
  }

  revoke(credentialCID: string) {
    return createRevocation({ did: this.did, credentialCID, createdAt: createdAt() }, this.signer);
  }

  credential(aud: string, att: Attenuation[], options: { exp?: number } = {}) {
    const now = Math.floor(Date.now() / 1000);
    return createCredential(
      { iss: this.did, aud, att, iat: now - 3600, exp: options.exp ?? now + 3600 },
      this.signer,
    );
  }
}

export async function ingest(t: TestApp, operations: unknown[]) {
  const response = await request(t.http).post('/relay/proof/v1/operations').send({ operations });
  if (response.status !== 200) throw new Error(`ingest answered ${response.status}: ${response.text}`);
  return response.body.results as {
    cid: string;
    status: string;
    kind?: string;
    chainId?: string;
    error?: string;
  }[];
}

/** Re-assembles a token with a replaced payload (the signature no longer matches). */
export function withPayload(token: string, change: (payload: Record<string, unknown>) => object): string {
  const [header, payload, signature] = token.split('.');
  const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  return [header, Buffer.from(JSON.stringify(change(decoded))).toString('base64url'), signature].join('.');
}

export function expectConstantNotFound(response: request.Response): void {
  expect(response.status).toBe(404);
  expect(response.text).toBe(NOT_FOUND_BODY);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
}
