import { createPrivateKey, createPublicKey, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { ProtocolError } from './errors';
import { decodeEd25519Multikey } from './multikey';
import { toHex } from './bytes';

// DER wrappers for raw Ed25519 keys (RFC 8410): node:crypto imports keys only as DER/PEM/JWK.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Group order L, little-endian, for the canonical-S check. */
const L_LE = Buffer.from('edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010', 'hex');

export interface Ed25519KeyPair {
  /** 32-byte seed (RFC 8032 private key) */
  readonly privateKey: Uint8Array;
  readonly publicKey: Uint8Array;
}

function privateKeyObject(seed: Uint8Array): KeyObject {
  if (seed.length !== 32) throw new ProtocolError('MALFORMED', 'an Ed25519 private key (seed) is 32 bytes');
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

function rawPublicKeyOf(keyObject: KeyObject): Uint8Array {
  const spki = createPublicKey(keyObject).export({ format: 'der', type: 'spki' });
  return new Uint8Array(spki.subarray(spki.length - 32));
}

export function generateEd25519KeyPair(): Ed25519KeyPair {
  const privateKey = new Uint8Array(randomBytes(32));
  return { privateKey, publicKey: ed25519PublicKeyFromPrivate(privateKey) };
}

export function ed25519PublicKeyFromPrivate(privateKey: Uint8Array): Uint8Array {
  return rawPublicKeyOf(privateKeyObject(privateKey));
}

/** Holds the imported private KeyObject, so repeated signing does not re-import. */
export interface Ed25519Signer {
  readonly publicKey: Uint8Array;
  sign(message: Uint8Array): Uint8Array;
}

export function ed25519Signer(privateKey: Uint8Array): Ed25519Signer {
  const keyObject = privateKeyObject(privateKey);
  const publicKey = rawPublicKeyOf(keyObject);
  return { publicKey, sign: (message) => new Uint8Array(sign(null, message, keyObject)) };
}

export function signEd25519(privateKey: Uint8Array, message: Uint8Array): Uint8Array {
  return new Uint8Array(sign(null, message, privateKeyObject(privateKey)));
}

// Verification keys recur (a handful of identities sign most traffic): cache the imported KeyObject.
const MAX_CACHED_KEYS = 2048;
const publicKeyCache = new Map<string, KeyObject>();

/** Imported public KeyObject for raw 32 bytes or a `z6Mk…` multikey, from a bounded cache. */
export function ed25519PublicKeyObject(publicKey: Uint8Array | string): KeyObject {
  const cacheKey = typeof publicKey === 'string' ? publicKey : toHex(publicKey);
  const cached = publicKeyCache.get(cacheKey);
  if (cached) return cached;
  const raw = typeof publicKey === 'string' ? decodeEd25519Multikey(publicKey) : publicKey;
  if (raw.length !== 32) throw new ProtocolError('MALFORMED', 'an Ed25519 public key is 32 bytes');
  const keyObject = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
  if (publicKeyCache.size >= MAX_CACHED_KEYS) {
    publicKeyCache.delete(publicKeyCache.keys().next().value as string);
  }
  publicKeyCache.set(cacheKey, keyObject);
  return keyObject;
}

/** S (the trailing 32 bytes, little-endian) must be < L: S + L would be a second valid signature. */
export function isCanonicalSignature(signature: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  for (let i = 31; i >= 0; i--) {
    const s = signature[32 + i];
    if (s !== L_LE[i]) return s < L_LE[i];
  }
  return false; // S == L
}

/**
 * Ed25519 verification with the profile's explicit S < L gate (throws on a non-canonical or
 * wrongly sized signature, since that is a profile violation rather than a mere mismatch).
 */
export function verifyEd25519(
  publicKey: Uint8Array | string,
  message: Uint8Array,
  signature: Uint8Array,
): boolean {
  if (!isCanonicalSignature(signature)) {
    throw new ProtocolError('SIGNATURE_NON_CANONICAL', 'Ed25519 signature is not 64 bytes with S < L');
  }
  return verify(null, message, ed25519PublicKeyObject(publicKey), signature);
}
