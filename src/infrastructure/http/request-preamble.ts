import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ShutdownState } from '../health/shutdown-state';
import type { AccessLog } from '../logging/access-log';
import { requestIdFor } from '../logging/logging.module';
import type { HttpMetrics } from '../metrics/http-metrics';
import { setSecurityHeaders } from './security-headers';

export interface PreambleParts {
  /** Absent when metrics are off. */
  readonly metrics?: HttpMetrics;
  readonly accessLog: AccessLog;
  readonly shutdown: ShutdownState;
  readonly trustProxy: boolean;
}

/**
 * What every request gets before anything can answer it, in one middleware (each `app.use` layer
 * costs every request): measured and logged (refusals, parser errors and the constant 404 too),
 * the security headers, its request id, `no-store` (the static artifacts override it: api-spec.md
 * "Limits"), and `Connection: close` once the replica drains (keep-alive clients then reconnect
 * elsewhere instead of riding this socket).
 */
export function requestPreamble(parts: PreambleParts) {
  const { metrics, accessLog, shutdown, trustProxy } = parts;
  return (request: IncomingMessage, response: ServerResponse, next: () => void): void => {
    metrics?.start(response);
    setSecurityHeaders(request, response, trustProxy);
    requestIdFor(request, response);
    response.setHeader('Cache-Control', 'no-store');
    shutdown.track(response);
    accessLog.start(request, response);
    next();
  };
}
