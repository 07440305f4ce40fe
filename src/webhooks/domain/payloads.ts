import type { WebhookPayload } from './webhook-events';

/** A URL carrying a signature (media-file and upload URLs: `?exp=…&sig=…`) is never sent. */
const SIGNED_URL = /[?&]sig=/;

/**
 * A copy of `value` without members that hold a signed URL (anywhere inside), and without a
 * reader's own `viewer` block: a payload is a projection, not one person's view
 * (docs/decisions/0161-webhook-events-and-payloads.md).
 */
export function scrubbed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrubbed);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'viewer') continue;
    if (typeof member === 'string' && SIGNED_URL.test(member)) continue;
    if (member !== null && typeof member === 'object' && containsSignedUrl(member)) continue;
    out[key] = scrubbed(member);
  }
  return out;
}

function containsSignedUrl(value: object): boolean {
  return Object.values(value).some((member) =>
    typeof member === 'string'
      ? SIGNED_URL.test(member)
      : member !== null && typeof member === 'object' && containsSignedUrl(member as object),
  );
}

/** The body as sent and signed. */
export function payloadBody(payload: WebhookPayload): string {
  return JSON.stringify(payload);
}
