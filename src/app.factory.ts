import { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import { MAX_CREDENTIAL_TOKEN_BYTES } from './protocol/core';
import { NestFactory } from '@nestjs/core';
import type { NestExpressBodyParserOptionsFor } from '@nestjs/platform-express';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { Express, NextFunction, Request, Response } from 'express';
import { Logger, PinoLogger } from 'nestjs-pino';
import { buildOpenApiDocument } from './api-docs/openapi-document';
import { ApiArtifacts } from './api-docs/api-artifacts.service';
import { AppModule } from './app.module';
import { notFound } from './common/errors/api-error';
import { holdsLoneSurrogate, holdsNul } from './common/validation/nul-text';
import { AppConfig } from './config/app-config';
import { bodyBytesInspector, refusedBodyHandler } from './infrastructure/http/body-bytes';
import { answerClientErrorsWithEnvelope } from './infrastructure/http/client-errors';
import { allowBrowserOrigins } from './infrastructure/http/cors';
import { healthOnly } from './infrastructure/http/health-only';
import { requestPreamble } from './infrastructure/http/request-preamble';
import { runInRequestScope } from './infrastructure/http/request-scope';
import { deferContinue } from './infrastructure/http/expect-continue';
import { AppPrototypeExpressAdapter } from './infrastructure/performance/app-prototype-express-adapter';
import { closeConnectionsWhenDraining } from './infrastructure/performance/close-connections-when-draining';
import { applyServerTimeouts } from './infrastructure/http/server-timeouts';
import { ShutdownState } from './infrastructure/health/shutdown-state';
import { AccessLog } from './infrastructure/logging/access-log';
import { HttpMetrics } from './infrastructure/metrics/http-metrics';
import { Metrics } from './infrastructure/metrics/metrics';
import { RateLimitMiddleware } from './infrastructure/rate-limit/rate-limit.middleware';

export const MAX_BODY_BYTES = '1mb';
/**
 * A 16-deep delegated credential is ~220 KB in X-Credential (each level embeds its parent), and the
 * protocol caps a credential token at 256 KiB; Node's default header limit is 16 KiB.
 */
export const MAX_HEADER_BYTES = MAX_CREDENTIAL_TOKEN_BYTES + 64 * 1024;

/** Creates the HTTP application for a validated config (DATABASE_URL must be set). */
export async function createApp(config: AppConfig): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config),
    new AppPrototypeExpressAdapter(),
    {
      bodyParser: false,
      bufferLogs: true,
    },
  );
  return configureApp(app);
}

/**
 * HTTP-level settings that are not providers: body parsing, header hygiene and the generated
 * artifacts. Anything that tests must also get belongs here or in a module, never only in main.ts.
 */
export async function configureApp(app: NestExpressApplication): Promise<NestExpressApplication> {
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  // Read by Node for every new connection (http.Server options.maxHeaderSize).
  (app.getHttpServer() as Server & { maxHeaderSize?: number }).maxHeaderSize = MAX_HEADER_BYTES;
  applyServerTimeouts(app.getHttpServer() as Server, app.get(AppConfig));
  // The upload route answers an announced body that is too large before the client sends it.
  deferContinue(app.getHttpServer() as Server, (url) => url.startsWith('/uploads/'));
  app.set('etag', false);
  // Express reads TRUST_PROXY's values (false, true, a hop count) as clientAddress does, so
  // `req.ip` names the client the rate limiter counts and the logs name.
  app.set('trust proxy', app.get(AppConfig).TRUST_PROXY);
  // First, so every answer is measured, logged and carries the headers of every answer.
  app.use(
    requestPreamble({
      metrics: app.get(Metrics).enabled ? app.get(HttpMetrics) : undefined,
      accessLog: new AccessLog(PinoLogger.root),
      trustProxy: app.get(AppConfig).TRUST_PROXY,
    }),
  );
  closeConnectionsWhenDraining(
    (app.getHttpAdapter().getInstance() as Express).response,
    app.get(ShutdownState),
  );
  if (!app.get(AppConfig).servesApi) app.use(healthOnly);
  // Before the rate limit: an allowed origin's preflight is neither charged nor authenticated.
  allowBrowserOrigins(app, app.get(AppConfig).corsAllowedOrigins);
  // Every request is charged per IP before its body is parsed; refusals reach the global filter.
  // Then a path whose percent-encoding does not decode (or decodes to NUL, which no column
  // stores) names nothing: the one 404 (a malformed id), not a 400 or a database error.
  const rateLimit = app.get(RateLimitMiddleware);
  app.use((request: Request, response: Response, next: NextFunction) => {
    const charged = (error?: unknown) => next(error ?? (decodes(request.path) ? undefined : notFound()));
    rateLimit.use(request, response, charged);
  });
  // Parser errors (malformed JSON, body over 1 MiB, bytes that are not UTF-8) reach the global
  // exception filter; the parser would otherwise turn invalid UTF-8 into U+FFFD and store it.
  // Nest 12 types leave `verify` out (it is how `rawBody` is implemented); with rawBody off the
  // adapter hands these options to express.json unchanged.
  const jsonOptions = { limit: MAX_BODY_BYTES, verify: bodyBytesInspector(app.get(AppConfig)) };
  app.useBodyParser('json', jsonOptions as NestExpressBodyParserOptionsFor<'json'>);
  app.use(refusedBodyHandler);
  // After the parser (its callbacks would leave it): the request's scope, where its log lines find
  // it and RequestWrites what it committed (a 500 after a rolled-back write gives its jti back).
  app.use((request: Request, _response: Response, next: NextFunction) => runInRequestScope(request, next));
  answerClientErrorsWithEnvelope(app.getHttpServer() as Server);
  app.get(ApiArtifacts).publish(() => buildOpenApiDocument(app as INestApplication));
  await app.init();
  return app;
}

/** Whether the path percent-decodes to text a route parameter can carry (no NUL, no lone surrogate). */
function decodes(path: string): boolean {
  try {
    const decoded = decodeURIComponent(path);
    return !holdsNul(decoded) && !holdsLoneSurrogate(decoded);
  } catch {
    return false;
  }
}

export type { AppConfig };
