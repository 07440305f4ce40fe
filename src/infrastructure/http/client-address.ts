import { isIP } from 'node:net';
import type { TrustProxy } from '../../config/trust-proxy';

export type { TrustProxy };

/**
 * The client's address as `trust` says, without port, brackets or zone (the rate limiter's bucket
 * and the logs' `remoteAddress` both come from here). An `X-Forwarded-For` entry that is not an IP
 * address (empty, `unknown`, obfuscated) falls back to the socket address, so such requests share
 * the proxy's budget instead of escaping into budgets of their own. Several `X-Forwarded-For` lines
 * count as one list in order (Node joins them with ", ").
 */
export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trust: TrustProxy,
): string | undefined {
  const socket = socketAddress === undefined ? undefined : bareAddress(socketAddress);
  if (trust === false || trust === 0 || forwardedFor === undefined) return socket;
  const entries = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',');
  // With fewer entries than hops the leftmost counts, as in Express: only proxies wrote them all.
  const chosen = trust === true ? entries[0] : entries[Math.max(0, entries.length - trust)];
  return bareAddress(chosen) ?? socket;
}

/** An IP address without port, brackets or zone, or undefined when the text is not one. */
export function bareAddress(text: string): string | undefined {
  let candidate = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(candidate);
  if (bracketed) candidate = bracketed[1];
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d+$/.test(candidate))
    candidate = candidate.slice(0, candidate.lastIndexOf(':'));
  const zone = candidate.indexOf('%');
  if (zone !== -1) candidate = candidate.slice(0, zone);
  return isIP(candidate) ? candidate : undefined;
}
