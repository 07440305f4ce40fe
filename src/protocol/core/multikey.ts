import { base58btc } from 'multiformats/bases/base58';
import { ProtocolError } from './errors';

/** Unsigned-varint multicodec prefix of ed25519-pub (0xed = 237 → 0xed 0x01, not big-endian 0x00ed). */
const ED25519_PUB_PREFIX = [0xed, 0x01] as const;

/** W3C Multikey: `z` + base58btc(0xed01 ‖ 32-byte key) → `z6Mk…`. */
export function encodeEd25519Multikey(publicKey: Uint8Array): string {
  if (publicKey.length !== 32) throw new ProtocolError('MALFORMED', 'an Ed25519 public key is 32 bytes');
  const prefixed = new Uint8Array(34);
  prefixed.set(ED25519_PUB_PREFIX, 0);
  prefixed.set(publicKey, 2);
  return base58btc.encode(prefixed);
}

/** Raw 32-byte Ed25519 key of a multikey; anything else (other codec, length, base) is refused. */
export function decodeEd25519Multikey(multikey: string): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = base58btc.decode(multikey);
  } catch {
    throw new ProtocolError('MALFORMED', `not a base58btc multikey: ${multikey}`);
  }
  if (bytes.length !== 34 || bytes[0] !== ED25519_PUB_PREFIX[0] || bytes[1] !== ED25519_PUB_PREFIX[1]) {
    throw new ProtocolError('MALFORMED', `not an Ed25519 multikey: ${multikey}`);
  }
  return bytes.slice(2);
}

/** A key as it appears in identity operations and state. */
export interface MultikeyPublicKey {
  id: string;
  type: 'Multikey';
  publicKeyMultibase: string;
}
