import { createHash } from 'node:crypto';
import {
  contentIdFromGenesisCid,
  DFOS_BRAND,
  decodeEd25519Multikey,
  deriveId,
  didFromGenesisCid,
  ed25519PublicKeyFromPrivate,
  encodeEd25519Multikey,
  fromHex,
  isBrandDid,
  isCanonicalSignature,
  isContentId,
  isPlatDid,
  keyIdFromPublicKey,
  parseDidUrl,
  signEd25519,
  toHex,
  verifyEd25519,
} from '../../../src/protocol/core';
import { protocolError, referenceKey } from './helpers';

const GENESIS_CID = 'bafyreicoghvjznvliuloxxmbf54tpzqwahnqpilk7ncxepjinedpkga3ne';
const GENESIS_CID_HEX = '017112204e31ea9cb6ab4516ebdd812f7937e61601db07a16afb45723d286906f5181b69';

describe('ID derivation', () => {
  it('follows the DID derivation worked example byte by byte', () => {
    const digest = createHash('sha256').update(fromHex(GENESIS_CID_HEX)).digest('hex');
    expect(digest).toBe('c66d21f27dceea0b05534c225ad7018ac7d4dfded0609dcd18022a3739a5488c');
    expect(deriveId(fromHex(GENESIS_CID_HEX))).toBe('cnnnft9f8a2rn938d6nkz38r847v2kr');
    expect(didFromGenesisCid(fromHex(GENESIS_CID_HEX))).toBe('did:plat:cnnnft9f8a2rn938d6nkz38r847v2kr');
    expect(didFromGenesisCid(GENESIS_CID, DFOS_BRAND)).toBe('did:dfos:cnnnft9f8a2rn938d6nkz38r847v2kr');
  });

  it('derives the content id of the reference content chain', () => {
    expect(contentIdFromGenesisCid('bafyreibs3vlvainfjfuet6x4uds3pivbmbohy7f64iegbuw3gpsuqtma6i')).toBe(
      '8n8fnzhrrefkrde6h72kfvff43r8c63',
    );
  });

  it('derives the reference key ids from the public keys', () => {
    expect(keyIdFromPublicKey(referenceKey(1).publicKey)).toBe('key_r9ev34fvc23z999veaaft83nn29zvhe');
    expect(keyIdFromPublicKey(referenceKey(2).publicKey)).toBe('key_ez9a874tckr3dv933d3ckdn7z6zrct8');
  });

  it.each([
    ['did:plat:cnnnft9f8a2rn938d6nkz38r847v2kr', true],
    ['did:plat:cnnnft9f8a2rn938d6nkz38r847v2k', false], // 30 chars
    ['did:plat:cnnnft9f8a2rn938d6nkz38r847v2krr', false], // 32 chars
    ['did:plat:cnnnft9f8a2rn938d6nkz38r847v2kb', false], // b is not in the alphabet
    ['did:plat:CNNNFT9F8A2RN938D6NKZ38R847V2KR', false],
    ['did:dfos:cnnnft9f8a2rn938d6nkz38r847v2kr', false],
    [' did:plat:cnnnft9f8a2rn938d6nkz38r847v2kr', false],
    [42, false],
  ])('isPlatDid(%p) is %p', (value, expected) => {
    expect(isPlatDid(value)).toBe(expected);
    expect(isBrandDid(value)).toBe(expected);
  });

  it('recognizes bare content ids', () => {
    expect(isContentId('8n8fnzhrrefkrde6h72kfvff43r8c63')).toBe(true);
    expect(isContentId('8n8fnzhrrefkrde6h72kfvff43r8c6')).toBe(false);
  });

  it('parses DID URL kids and refuses malformed ones', () => {
    expect(parseDidUrl('did:plat:cnnnft9f8a2rn938d6nkz38r847v2kr#key_x')).toEqual({
      did: 'did:plat:cnnnft9f8a2rn938d6nkz38r847v2kr',
      keyId: 'key_x',
    });
    for (const kid of ['key_x', 'did:plat:cnnnft9f8a2rn938d6nkz38r847v2kr#', 'did:plat:short#key_x']) {
      expect(protocolError(() => parseDidUrl(kid)).code).toBe('KID_INVALID');
    }
  });
});

describe('Multikey', () => {
  const publicKey = fromHex('ba421e272fad4f941c221e47f87d9253bdc04f7d4ad2625ae667ab9f0688ce32');

  it('encodes and decodes the worked example', () => {
    expect(encodeEd25519Multikey(publicKey)).toBe('z6MkrzLMNwoJSV4P3YccWcbtk8vd9LtgMKnLeaDLUqLuASjb');
    expect(toHex(decodeEd25519Multikey('z6MkrzLMNwoJSV4P3YccWcbtk8vd9LtgMKnLeaDLUqLuASjb'))).toBe(
      toHex(publicKey),
    );
  });

  it('refuses other codecs, lengths and bases', () => {
    // secp256k1-pub multikey (0xe7 0x01)
    expect(
      protocolError(() => decodeEd25519Multikey('zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme')).code,
    ).toBe('MALFORMED');
    expect(
      protocolError(() => decodeEd25519Multikey('z6MkrzLMNwoJSV4P3YccWcbtk8vd9LtgMKnLeaDLUqLuAS')).code,
    ).toBe('MALFORMED');
    expect(
      protocolError(() => decodeEd25519Multikey('f6MkrzLMNwoJSV4P3YccWcbtk8vd9LtgMKnLeaDLUqLuASjb')).code,
    ).toBe('MALFORMED');
    expect(protocolError(() => encodeEd25519Multikey(new Uint8Array(31))).code).toBe('MALFORMED');
  });
});

describe('Ed25519', () => {
  const L = (1n << 252n) + 27742317777372353535851937790883648493n;

  function addLToS(signature: Uint8Array): Uint8Array {
    const s = BigInt('0x' + toHex(signature.slice(32).reverse()));
    const sPlusL = (s + L).toString(16).padStart(64, '0');
    const out = new Uint8Array(signature);
    out.set(fromHex(sPlusL).reverse(), 32);
    return out;
  }

  it('derives the reference public key from its seed', () => {
    const seed = fromHex('132d4bebdb6e62359afb930fe15d756a92ad96e6b0d47619988f5a1a55272aac');
    expect(toHex(ed25519PublicKeyFromPrivate(seed))).toBe(
      'ba421e272fad4f941c221e47f87d9253bdc04f7d4ad2625ae667ab9f0688ce32',
    );
    expect(referenceKey(1).multikey).toBe('z6MkrzLMNwoJSV4P3YccWcbtk8vd9LtgMKnLeaDLUqLuASjb');
  });

  it('signs and verifies, with raw keys or multikeys, and rejects another key or message', () => {
    const key = referenceKey(1);
    const message = new Uint8Array(Buffer.from('hello'));
    const signature = key.sign(message);
    expect(verifyEd25519(key.publicKey, message, signature)).toBe(true);
    expect(verifyEd25519(key.multikey, message, signature)).toBe(true);
    expect(verifyEd25519(referenceKey(2).publicKey, message, signature)).toBe(false);
    expect(verifyEd25519(key.publicKey, new Uint8Array(Buffer.from('hellO')), signature)).toBe(false);
    const seed = new Uint8Array(createHash('sha256').update('dfos-protocol-reference-key-1').digest());
    expect(toHex(signEd25519(seed, message))).toBe(toHex(signature)); // Ed25519 is deterministic
  });

  it('refuses a non-canonical S (S + L) before verifying, and wrong lengths', () => {
    const key = referenceKey(1);
    const message = new Uint8Array([1, 2, 3]);
    const signature = key.sign(message);
    expect(isCanonicalSignature(signature)).toBe(true);
    const malleated = addLToS(signature);
    expect(isCanonicalSignature(malleated)).toBe(false);
    expect(protocolError(() => verifyEd25519(key.publicKey, message, malleated)).code).toBe(
      'SIGNATURE_NON_CANONICAL',
    );
    expect(protocolError(() => verifyEd25519(key.publicKey, message, signature.slice(0, 63))).code).toBe(
      'SIGNATURE_NON_CANONICAL',
    );
  });
});
