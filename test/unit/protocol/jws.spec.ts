import {
  classifyJws,
  decodeJws,
  fromHex,
  signJws,
  toHex,
  typFor,
  verifyJws,
} from '../../../src/protocol/core';
import { forgeToken, protocolError, referenceKey } from './helpers';

const key = referenceKey(1);
const IDENTITY_TYP = 'did:plat:identity-op';
const KID = 'did:plat:cnnnft9f8a2rn938d6nkz38r847v2kr#' + key.keyId;

function sign(header: Record<string, unknown>, payload: object = { version: 1, type: 'test' }): string {
  // Raw signing without the alg override, to produce adversarial headers with valid signatures.
  const enc = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const input = `${enc(header)}.${enc(payload)}`;
  return `${input}.${Buffer.from(key.sign(new Uint8Array(Buffer.from(input)))).toString('base64url')}`;
}

describe('JWS compact signing and the verification profile', () => {
  it('signs with alg EdDSA first and verifies, returning header, payload and raw payload bytes', () => {
    const token = signJws({ typ: IDENTITY_TYP, kid: KID }, { version: 1, type: 'test' }, key);
    const decoded = verifyJws(token, key.publicKey, { expectedTyp: IDENTITY_TYP });
    expect(Object.keys(decoded.header)).toEqual(['alg', 'typ', 'kid']);
    expect(decoded.header.alg).toBe('EdDSA');
    expect(decoded.payload).toEqual({ version: 1, type: 'test' });
    expect(Buffer.from(decoded.payloadBytes).toString()).toBe('{"version":1,"type":"test"}');
  });

  it('reports a signature by another key or over other bytes as SIGNATURE_INVALID', () => {
    const token = signJws({ typ: IDENTITY_TYP, kid: KID }, { version: 1 }, key);
    expect(protocolError(() => verifyJws(token, referenceKey(2).publicKey)).code).toBe('SIGNATURE_INVALID');
    const tampered = forgeToken(token, { payload: { version: 2 } });
    expect(protocolError(() => verifyJws(tampered, key.publicKey)).code).toBe('SIGNATURE_INVALID');
  });

  it.each([
    ['none', { alg: 'none', typ: IDENTITY_TYP, kid: KID }],
    ['HS256', { alg: 'HS256', typ: IDENTITY_TYP, kid: KID }],
    ['RS256', { alg: 'RS256', typ: IDENTITY_TYP, kid: KID }],
    ['lowercase eddsa', { alg: 'eddsa', typ: IDENTITY_TYP, kid: KID }],
    ['Ed25519', { alg: 'Ed25519', typ: IDENTITY_TYP, kid: KID }],
    ['absent alg', { typ: IDENTITY_TYP, kid: KID }],
  ])('refuses alg %s even with a valid Ed25519 signature', (_name, header) => {
    const token = sign(header);
    expect(protocolError(() => verifyJws(token, key.publicKey, { expectedTyp: IDENTITY_TYP })).code).toBe(
      'JWS_PROFILE',
    );
  });

  it('refuses alg none with an empty signature before looking at the signature', () => {
    const token = forgeToken(sign({ alg: 'none', typ: IDENTITY_TYP, kid: KID }), {}).replace(/\.[^.]*$/, '.');
    expect(protocolError(() => decodeJws(token)).code).toBe('JWS_PROFILE');
  });

  it.each(['crit', 'jwk', 'jku', 'x5c', 'x5u'])('refuses a header carrying %s', (member) => {
    const values: Record<string, unknown> = {
      crit: ['exp'],
      jwk: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(key.publicKey).toString('base64url') },
      jku: 'https://example.com/keys',
      x5c: ['MIIB'],
      x5u: 'https://example.com/cert',
    };
    const token = sign({ alg: 'EdDSA', typ: IDENTITY_TYP, kid: KID, [member]: values[member] });
    const error = protocolError(() => verifyJws(token, key.publicKey));
    expect(error.code).toBe('JWS_PROFILE');
    expect(error.message).toContain(member);
  });

  it('refuses a typ swap and a missing typ when a typ is expected', () => {
    const token = signJws({ typ: IDENTITY_TYP, kid: KID }, { version: 1 }, key);
    expect(
      protocolError(() => verifyJws(token, key.publicKey, { expectedTyp: 'did:plat:content-op' })).code,
    ).toBe('JWS_PROFILE');
    expect(
      protocolError(() => verifyJws(token, key.publicKey, { expectedTyp: 'did:dfos:identity-op' })).code,
    ).toBe('JWS_PROFILE');
    const untyped = sign({ alg: 'EdDSA', kid: KID });
    expect(protocolError(() => verifyJws(untyped, key.publicKey, { expectedTyp: IDENTITY_TYP })).code).toBe(
      'JWS_PROFILE',
    );
  });

  it('refuses a missing or empty kid', () => {
    expect(protocolError(() => decodeJws(sign({ alg: 'EdDSA', typ: IDENTITY_TYP }))).code).toBe(
      'KID_INVALID',
    );
    expect(protocolError(() => decodeJws(sign({ alg: 'EdDSA', typ: IDENTITY_TYP, kid: '' }))).code).toBe(
      'KID_INVALID',
    );
  });

  it('refuses a non-canonical S even though S + L satisfies the verification equation', () => {
    const token = signJws({ typ: IDENTITY_TYP, kid: KID }, { version: 1 }, key);
    const signature = Buffer.from(token.split('.')[2], 'base64url');
    const L = (1n << 252n) + 27742317777372353535851937790883648493n;
    const s = BigInt('0x' + toHex(new Uint8Array(signature.subarray(32)).reverse()));
    const malleated = new Uint8Array(signature);
    malleated.set(fromHex((s + L).toString(16).padStart(64, '0')).reverse(), 32);
    const forged = forgeToken(token, { signature: malleated });
    expect(protocolError(() => verifyJws(forged, key.publicKey)).code).toBe('SIGNATURE_NON_CANONICAL');
  });

  it.each([
    ['two segments', (t: string) => t.split('.').slice(0, 2).join('.')],
    ['four segments', (t: string) => `${t}.x`],
    ['padding', (t: string) => `${t.split('.')[0]}=.${t.split('.').slice(1).join('.')}`],
    ['standard base64 characters', (t: string) => t.replace(/-|_/g, '+') + '+'],
  ])('refuses malformed compact serialization: %s', (_name, mutate) => {
    const token = signJws({ typ: IDENTITY_TYP, kid: KID }, { version: 1, type: 'a-b_c' }, key);
    expect(['MALFORMED', 'SIGNATURE_INVALID']).toContain(
      protocolError(() => verifyJws(mutate(token), key.publicKey)).code,
    );
    expect(protocolError(() => verifyJws(mutate(token), key.publicKey)).code).not.toBe('SIGNATURE_INVALID');
  });

  it('refuses payloads with duplicate keys or that are not objects', () => {
    const enc = (text: string) => Buffer.from(text).toString('base64url');
    const header = enc(JSON.stringify({ alg: 'EdDSA', typ: IDENTITY_TYP, kid: KID }));
    for (const payload of ['{"version":1,"version":2}', '[1,2]', '"x"']) {
      const input = `${header}.${enc(payload)}`;
      const token = `${input}.${Buffer.from(key.sign(new Uint8Array(Buffer.from(input)))).toString('base64url')}`;
      expect(protocolError(() => verifyJws(token, key.publicKey)).code).toBe('MALFORMED');
    }
  });

  it('classifies tokens by typ for ingest routing', () => {
    const of = (typ: string) => signJws({ typ, kid: KID }, { version: 1 }, key);
    expect(classifyJws(of(typFor('identity-op')))).toBe('identity-op');
    expect(classifyJws(of(typFor('content-op')))).toBe('content-op');
    expect(classifyJws(of(typFor('credential')))).toBe('credential');
    expect(classifyJws(of(typFor('revocation')))).toBe('revocation');
    expect(classifyJws(of('JWT'))).toBe('auth-token');
    expect(classifyJws(of('did:dfos:identity-op'))).toBeNull();
  });
});
