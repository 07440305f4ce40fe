import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';

/** What the code running for one request can find without being handed the request. */
export interface RequestScope {
  readonly request: IncomingMessage;
  /** Whether `committed` is followed: writes only (GET and HEAD commit nothing of their own). */
  readonly tracksWrites: boolean;
  /** Set once the request has committed something (RequestWrites). */
  committed: boolean;
}

/**
 * One async context per request, entered once (after the body parser, whose callbacks would leave
 * it): log lines find their request here, and RequestWrites what the request committed. One
 * context rather than one per concern: each `run` costs every request.
 */
export const requestScopes = new AsyncLocalStorage<RequestScope>();

const BODILESS = new Set(['GET', 'HEAD']);
const SCOPE = Symbol('requestScope');
type ScopedRequest = IncomingMessage & { [SCOPE]?: RequestScope };

/** Runs the rest of `request` (`next`) in its scope. */
export function runInRequestScope(request: IncomingMessage, next: () => void): void {
  const scope: RequestScope = {
    request,
    tracksWrites: !BODILESS.has(request.method ?? ''),
    committed: false,
  };
  (request as ScopedRequest)[SCOPE] = scope;
  requestScopes.run(scope, next);
}

/** The scope `request` ran in, also after it has left it (an error answer). */
export function scopeOf(request: IncomingMessage): RequestScope | undefined {
  return (request as ScopedRequest)[SCOPE];
}
