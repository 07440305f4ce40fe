import { createHash } from 'node:crypto';
import { PLAT_BRAND, type ProtocolBrand } from './brand';
import { cidToBytes } from './cid';

/** The 19-character alphabet of every derived identifier (no look-alike characters). */
export const ID_ALPHABET = '2346789acdefhknrtvz';
export const ID_LENGTH = 31;
export const ID_PATTERN = /^[2346789acdefhknrtvz]{31}$/;
export const PLAT_DID_PATTERN = /^did:plat:[2346789acdefhknrtvz]{31}$/;
export const KEY_ID_PREFIX = 'key_';

/** `SHA-256(input)` → first 31 bytes → `alphabet[byte % 19]` (the 0.3% modulo bias is accepted). */
export function deriveId(input: Uint8Array): string {
  const digest = createHash('sha256').update(input).digest();
  let id = '';
  for (let i = 0; i < ID_LENGTH; i++) id += ID_ALPHABET[digest[i] % ID_ALPHABET.length];
  return id;
}

function genesisCidBytes(genesisCid: string | Uint8Array): Uint8Array {
  return typeof genesisCid === 'string' ? cidToBytes(genesisCid) : genesisCid;
}

/** An identity's DID: the ID of its genesis op's binary CID, prefixed with the DID method. */
export function didFromGenesisCid(
  genesisCid: string | Uint8Array,
  brand: ProtocolBrand = PLAT_BRAND,
): string {
  return brand.didPrefix + deriveId(genesisCidBytes(genesisCid));
}

/** A content chain's bare identifier: same derivation as a DID, no prefix. */
export function contentIdFromGenesisCid(genesisCid: string | Uint8Array): string {
  return deriveId(genesisCidBytes(genesisCid));
}

/** Conventional, verifiable key id: `key_` + ID of the raw public key (not a protocol requirement). */
export function keyIdFromPublicKey(publicKey: Uint8Array): string {
  return KEY_ID_PREFIX + deriveId(publicKey);
}

export function isPlatDid(value: unknown): value is string {
  return typeof value === 'string' && PLAT_DID_PATTERN.test(value);
}

/** Exact DID form for a brand: its prefix plus exactly 31 alphabet characters. */
export function isBrandDid(value: unknown, brand: ProtocolBrand = PLAT_BRAND): value is string {
  return (
    typeof value === 'string' &&
    value.startsWith(brand.didPrefix) &&
    ID_PATTERN.test(value.slice(brand.didPrefix.length))
  );
}

export function isContentId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}
