import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';

/** What a browser app sends: the request proof, the credential, JSON, retry keys, its request id. */
const ALLOWED_HEADERS = ['Authorization', 'X-Credential', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'];
/** What it must read beyond the CORS-safelisted headers: its budgets (design.md §6), the request id. */
const EXPOSED_HEADERS = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'X-Request-Id',
];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Chromium's cap; a preflight is cached per URL, and every post and comment has its own. */
const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/**
 * CORS for the listed origins only (CORS_ALLOWED_ORIGINS; none: nothing is registered). Call it
 * before the rate limit: an allowed origin's preflight is answered 204 here, uncharged and without
 * auth; any other origin, or a request without `Origin`, gets no Access-Control-* header and goes
 * on as without CORS (its OPTIONS is the constant 404). Credentials mode is never allowed: requests
 * carry their authority in headers, not cookies.
 */
export function allowBrowserOrigins(app: NestExpressApplication, origins: readonly string[]): void {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  // Every answer then depends on Origin, the cacheable artifacts too.
  app.use((_request: Request, response: Response, next: NextFunction) => {
    response.vary('Origin');
    next();
  });
  const options: CorsOptions = {
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    methods: METHODS,
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    credentials: false,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    optionsSuccessStatus: 204,
  };
  app.enableCors(options);
}
