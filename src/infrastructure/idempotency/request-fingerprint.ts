import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const BODY_DIGEST = Symbol('idempotencyBodyDigest');
type DigestedRequest = IncomingMessage & { [BODY_DIGEST]?: Buffer };
const EMPTY_BODY_DIGEST = createHash('sha256').digest();

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/**
 * Called by the JSON body parser with the body's bytes: keeps their SHA-256 when the request
 * carries an `Idempotency-Key` (the raw bytes, not the parsed value, so hashing costs one pass
 * however wide or deep the body is, and only an identical retry matches).
 */
export function noteBodyBytes(request: IncomingMessage, body: Buffer): void {
  if (request.headers[IDEMPOTENCY_KEY_HEADER] === undefined) return;
  (request as DigestedRequest)[BODY_DIGEST] = createHash('sha256').update(body).digest();
}

/** SHA-256 of what the request asks: method, target (path and query) and body bytes. */
export function requestFingerprint(request: IncomingMessage & { originalUrl?: string }): Buffer {
  return createHash('sha256')
    .update(`${request.method}\n${request.originalUrl ?? request.url}\n`)
    .update((request as DigestedRequest)[BODY_DIGEST] ?? EMPTY_BODY_DIGEST)
    .digest();
}
