import { ProtocolError } from './errors';

const BASE64URL = /^[A-Za-z0-9_-]*$/;

export function base64urlEncode(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

/**
 * Strict decode: Node's decoder silently skips foreign characters and padding, which would let two
 * different strings decode to the same bytes. Only the unpadded base64url alphabet is accepted.
 */
export function base64urlDecode(text: string, what = 'base64url value'): Uint8Array {
  if (!BASE64URL.test(text) || text.length % 4 === 1) {
    throw new ProtocolError('MALFORMED', `${what} is not unpadded base64url`);
  }
  return new Uint8Array(Buffer.from(text, 'base64url'));
}

export function utf8Encode(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'utf8'));
}

/** Fatal decoder: invalid UTF-8 is an error, not U+FFFD (the signature covers the raw bytes). */
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function utf8Decode(bytes: Uint8Array, what = 'value'): string {
  try {
    return utf8Decoder.decode(bytes);
  } catch {
    throw new ProtocolError('MALFORMED', `${what} is not valid UTF-8`);
  }
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

export function fromHex(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex, 'hex'));
}
