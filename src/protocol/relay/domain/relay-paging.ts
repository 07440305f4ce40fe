import { relayBadRequest } from './relay-error';

export const DEFAULT_RELAY_LIMIT = 100;
export const MAX_RELAY_LIMIT = 1000;

/**
 * `limit` of relay list routes (WEB-RELAY.md): absent → 100; a positive decimal integer, clamped to
 * 1000; anything else (zero, negative, fraction, text) is a 400 rather than a silent default.
 */
export function parseRelayLimit(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_RELAY_LIMIT;
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw relayBadRequest('limit must be a positive integer');
  return Math.min(Number(raw), MAX_RELAY_LIMIT);
}

/** Boolean filters fail closed: absent, exactly `true` or exactly `false` (WEB-RELAY.md). */
export function parseRelayBoolean(raw: string | undefined): boolean | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw relayBadRequest('invalid boolean');
}

export type IndexOrder = 'genesisAt.desc' | 'headAt.desc';

export function parseIndexOrder(raw: string | undefined): IndexOrder | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'genesisAt.desc' || raw === 'headAt.desc') return raw;
  throw relayBadRequest('order must be genesisAt.desc or headAt.desc');
}
