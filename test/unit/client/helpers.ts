import { PlatIdentity } from '../../../src/protocol/client';
import { parseDidUrl, ProtocolError, resolveCurrentKey } from '../../../src/protocol/core';

export const NOW = new Date('2026-11-22T12:00:00.000Z');
export const NOW_S = Math.floor(NOW.getTime() / 1000);
export const clock = () => NOW;
export const HOST = 'api.plat.test';

/** Decodes one JWS segment as JSON (test inspection only). */
export function segment(token: string, index: 0 | 1): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[index], 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

export function rawSegment(token: string, index: 0 | 1): string {
  return Buffer.from(token.split('.')[index], 'base64url').toString('utf8');
}

/** A resolver over the current state of known identities, as the server resolves `did#keyId`. */
export function resolverFor(...identities: PlatIdentity[]) {
  return (kid: string): Uint8Array => {
    const { did } = parseDidUrl(kid);
    const identity = identities.find((candidate) => candidate.did === did);
    if (!identity) throw new ProtocolError('KEY_NOT_FOUND', `unknown identity ${did}`);
    return resolveCurrentKey(identity.state, kid).publicKey;
  };
}
