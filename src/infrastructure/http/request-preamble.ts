import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccessLog } from '../logging/access-log';
import { requestIdFor } from '../logging/logging.module';
import type { HttpMetrics } from '../metrics/http-metrics';
import type { TrustProxy } from './client-address';
import { setSecurityHeaders } from './security-headers';

export interface PreambleParts {
  /** Absent when metrics are off. */
  readonly metrics?: HttpMetrics;
  readonly accessLog: AccessLog;
  readonly trustProxy: TrustProxy;
}

/**
 * What every request gets before anything can answer it, in one middleware (each `app.use` layer
 * costs every request): measured and logged (refusals, parser errors and the constant 404 too),
 * the security headers, its request id and `no-store` (the static artifacts override it: api-spec.md
 * "Limits"). `Connection: close` while draining is the response prototype's (closeConnectionsWhenDraining).
 */
export function requestPreamble(parts: PreambleParts) {
  const { metrics, accessLog, trustProxy } = parts;
  return (request: IncomingMessage, response: ServerResponse, next: () => void): void => {
    metrics?.start(response);
    setSecurityHeaders(request, response, trustProxy);
    requestIdFor(request, response);
    response.setHeader('Cache-Control', 'no-store');
    accessLog.start(request, response);
    next();
  };
}
