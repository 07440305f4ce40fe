import { createHash } from 'node:crypto';
import { CID } from 'multiformats/cid';
import * as Digest from 'multiformats/hashes/digest';
import { dagCborCanonicalEncode } from './encoding';
import { ProtocolError } from './errors';

const DAG_CBOR_CODEC = 0x71;
const SHA2_256_CODE = 0x12;

/**
 * Every protocol CID is CIDv1 + dag-cbor + sha-256, so its base32 string is always `bafyrei` plus
 * 52 characters. Accepting only this exact shape keeps comparisons byte-wise and closes other codecs.
 */
export const DAG_CBOR_CID_PATTERN = /^bafyrei[a-z2-7]{52}$/;

export interface ComputedCid {
  /** base32-lower multibase string, `bafyrei…` */
  readonly cid: string;
  /** binary CID: 0x01 0x71 0x12 0x20 + 32-byte digest */
  readonly cidBytes: Uint8Array;
  /** the canonical dag-cbor bytes that were hashed */
  readonly encoded: Uint8Array;
}

/** CID of already-encoded dag-cbor bytes (sha-256 via node:crypto, synchronous). */
export function cidOfEncoded(encoded: Uint8Array): ComputedCid {
  const digest = new Uint8Array(createHash('sha256').update(encoded).digest());
  const cid = CID.create(1, DAG_CBOR_CODEC, Digest.create(SHA2_256_CODE, digest));
  return { cid: cid.toString(), cidBytes: cid.bytes, encoded };
}

/** `dagCborCanonicalEncode(value) → SHA-256 → CIDv1`; enforces the number rule. */
export function computeCid(value: unknown): ComputedCid {
  return cidOfEncoded(dagCborCanonicalEncode(value));
}

export function isDagCborCid(value: unknown): value is string {
  return typeof value === 'string' && DAG_CBOR_CID_PATTERN.test(value);
}

/** Binary form of a protocol CID string; throws unless it is a CIDv1 dag-cbor sha-256. */
export function cidToBytes(cid: string): Uint8Array {
  if (!isDagCborCid(cid)) throw new ProtocolError('MALFORMED', `not a dag-cbor sha-256 CIDv1: ${cid}`);
  try {
    return CID.parse(cid).bytes;
  } catch {
    throw new ProtocolError('MALFORMED', `not a dag-cbor sha-256 CIDv1: ${cid}`);
  }
}
