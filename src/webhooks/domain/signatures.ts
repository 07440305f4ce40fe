import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (docs/decisions/0163-webhook-signatures.md): the signed content is
 * `${id}.${timestamp}.${body}`; `v1,` is its HMAC-SHA256 under the secret's bytes (the base64 after
 * `whsec_`), `v1a,` its Ed25519 signature by the service's origin key; several space-separated.
 */
export const SECRET_PREFIX = 'whsec_';

/** A new secret: `whsec_` + base64 of 24 random bytes (the specification's 24–64). */
export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

export function signedContent(id: string, timestamp: number, body: string): Buffer {
  return Buffer.from(`${id}.${timestamp}.${body}`, 'utf8');
}

/** `v1,<base64 HMAC-SHA256>` of the signed content under one secret. */
export function symmetricSignature(secret: string, content: Buffer): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(content).digest('base64')}`;
}

/** `v1a,<base64 Ed25519 signature>`. */
export function asymmetricSignature(signature: Uint8Array): string {
  return `v1a,${Buffer.from(signature).toString('base64')}`;
}

/**
 * The pause after each failed attempt (the specification's schedule: 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h, 10 h); after the eighth attempt the delivery has failed.
 */
export const RETRY_SCHEDULE_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
  10 * 3600_000,
] as const;

/** A subscription failing (no success) for this long is disabled. */
export const FAILING_DISABLES_AFTER_MS = 5 * 24 * 3600_000;

/** The previous secret keeps signing for this long after a rotation. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3600_000;
