import { ed25519Signer, generateEd25519KeyPair, type Ed25519Signer } from './ed25519';
import { keyIdFromPublicKey } from './ids';
import { encodeEd25519Multikey, type MultikeyPublicKey } from './multikey';

/**
 * A signing key as the protocol names it: the key id used in `kid` and key sets, its multikey, and
 * a sign function. Signing functions take this interface, so a key held elsewhere (KMS, HSM) can
 * be plugged in by implementing `sign`.
 */
export interface KeySigner extends Ed25519Signer {
  readonly keyId: string;
  readonly multikey: string;
}

/** KeySigner over a 32-byte seed; the key id defaults to the conventional `key_` + ID(publicKey). */
export function createKeySigner(privateKey: Uint8Array, keyId?: string): KeySigner {
  const signer = ed25519Signer(privateKey);
  return {
    ...signer,
    keyId: keyId ?? keyIdFromPublicKey(signer.publicKey),
    multikey: encodeEd25519Multikey(signer.publicKey),
  };
}

export function generateKeySigner(): KeySigner & { readonly privateKey: Uint8Array } {
  const { privateKey } = generateEd25519KeyPair();
  return { ...createKeySigner(privateKey), privateKey };
}

/** The key-set entry (`{id, type: "Multikey", publicKeyMultibase}`) for a signer or raw key. */
export function multikeyEntry(key: KeySigner | Uint8Array, keyId?: string): MultikeyPublicKey {
  if (key instanceof Uint8Array) {
    return {
      id: keyId ?? keyIdFromPublicKey(key),
      type: 'Multikey',
      publicKeyMultibase: encodeEd25519Multikey(key),
    };
  }
  return { id: keyId ?? key.keyId, type: 'Multikey', publicKeyMultibase: key.multikey };
}
