import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import helmet, { strictTransportSecurity } from 'helmet';
import type { TrustProxy } from './client-address';

type Middleware = (
  request: IncomingMessage,
  response: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/**
 * Headers of every answer (docs/decisions/0014-response-headers-no-etag-security-headers-on-every-answer.md). The service answers JSON, YAML and text, never a
 * page, so nothing may load from a response, frame it or sniff it into something else. helmet's
 * defaults that concern HTML documents or retired browsers (Cross-Origin-Opener-Policy,
 * Origin-Agent-Cluster, X-DNS-Prefetch-Control, X-Download-Options,
 * X-Permitted-Cross-Domain-Policies, X-XSS-Protection) are left out. Cross-Origin-Resource-Policy
 * is `cross-origin`, not helmet's `same-origin`: the API uses no cookies, so an embedding page gets
 * only what anyone may read, and media served under /cdn must embed on the spaces' sites.
 */
const staticSecurityHeaders: Middleware = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  },
  crossOriginResourcePolicy: { policy: 'cross-origin' },
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  referrerPolicy: { policy: 'no-referrer' },
  // Sent per request below: only an answer that travels over TLS may pin HTTPS.
  strictTransportSecurity: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xFrameOptions: { action: 'deny' },
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
});

/** One year with subdomains, helmet's default; no preload (that is a decision about the domain). */
const hsts: Middleware = strictTransportSecurity();

type Header = readonly [name: string, value: string];

/**
 * The headers a helmet middleware sets, recorded once: they depend on nothing of the request, so
 * each request gets the recorded list instead of a pass through helmet's middleware chain.
 */
function recorded(middleware: Middleware): readonly Header[] {
  const headers: Header[] = [];
  const recorder = {
    setHeader: (name: string, value: string | number) => headers.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  middleware({ headers: {} } as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  return headers;
}

const STATIC_HEADERS = recorded(staticSecurityHeaders);
const HSTS_HEADERS = recorded(hsts);

/**
 * Sets the security headers, and Strict-Transport-Security when the request came over TLS: to this
 * process directly, or to the edge proxy as its `X-Forwarded-Proto` says when TRUST_PROXY is set
 * (its first entry, the edge's, whether TRUST_PROXY is `true` or a hop count, as Express reads it:
 * a spoofed value only changes the spoofer's own answer). Never on plain HTTP: browsers must ignore
 * it there (RFC 6797), and an X-Forwarded-Proto from an untrusted client proves nothing.
 */
export function setSecurityHeaders(
  request: IncomingMessage,
  response: ServerResponse,
  trustProxy: TrustProxy,
): void {
  for (const [name, value] of STATIC_HEADERS) response.setHeader(name, value);
  if (!cameOverTls(request, trustProxy)) return;
  for (const [name, value] of HSTS_HEADERS) response.setHeader(name, value);
}

export function cameOverTls(request: IncomingMessage, trustProxy: TrustProxy): boolean {
  if ((request.socket as Partial<TLSSocket>).encrypted === true) return true;
  if (!trustProxy) return false;
  const forwarded = request.headers['x-forwarded-proto'];
  const first = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',')[0];
  return first.trim().toLowerCase() === 'https';
}

/**
 * The headers every answer carries whatever the request, as `Name: value` lines, for answers
 * written to the socket without a response object (requests Node's parser refuses).
 */
export function staticSecurityHeaderLines(): string[] {
  return STATIC_HEADERS.map(([name, value]) => `${name}: ${value}`);
}
