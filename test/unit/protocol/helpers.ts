import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  computeCid,
  createKeySigner,
  didFromGenesisCid,
  generateKeySigner,
  parseDidUrl,
  ProtocolError,
  type KeySigner,
} from '../../../src/protocol/core';

/** Reference keys of PROTOCOL.md: seed = SHA-256(UTF8("dfos-protocol-reference-key-N")). */
export function referenceKey(n: number): KeySigner {
  return createKeySigner(
    new Uint8Array(createHash('sha256').update(`dfos-protocol-reference-key-${n}`).digest()),
  );
}

export interface Vector {
  description: string;
  type: string;
  chain?: string[];
  credential?: string;
  [field: string]: unknown;
}

export function loadVector<T = Vector>(name: string): T {
  return JSON.parse(readFileSync(join(__dirname, 'vectors', name), 'utf8')) as T;
}

/** Runs fn and returns the ProtocolError it throws; fails the test if it throws nothing or something else. */
export function protocolError(fn: () => unknown): ProtocolError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ProtocolError) return error;
    throw error;
  }
  throw new Error('expected a ProtocolError, nothing was thrown');
}

export async function protocolErrorAsync(fn: () => Promise<unknown>): Promise<ProtocolError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof ProtocolError) return error;
    throw error;
  }
  throw new Error('expected a ProtocolError, nothing was thrown');
}

/** Decodes a JWS payload without verifying (test inspection only). */
export function payloadOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

export function headerOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

/** Re-assembles a token with a replaced header and/or payload (the signature no longer matches). */
export function forgeToken(
  token: string,
  changes: { header?: object; payload?: object; signature?: Uint8Array },
): string {
  const [h, p, s] = token.split('.');
  const enc = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return [
    changes.header ? enc(changes.header) : h,
    changes.payload ? enc(changes.payload) : p,
    changes.signature ? Buffer.from(changes.signature).toString('base64url') : s,
  ].join('.');
}

/**
 * Fake identities for credential and content tests: DID n is derived from a dummy genesis, and
 * `resolve` maps a `did#keyId` kid to that DID's key (one shared key unless a signer is given).
 */
export class Identities {
  private readonly keys = new Map<string, KeySigner>();
  readonly signer = generateKeySigner();

  did(n: number, signer: KeySigner = this.signer): string {
    const did = didFromGenesisCid(computeCid({ identity: n }).cidBytes);
    this.keys.set(did, signer);
    return did;
  }

  resolve = (kid: string): Uint8Array => {
    const { did, keyId } = parseDidUrl(kid);
    const key = this.keys.get(did);
    if (!key || key.keyId !== keyId) throw new ProtocolError('KEY_NOT_FOUND', `unknown key ${kid}`);
    return key.publicKey;
  };
}
