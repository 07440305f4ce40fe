import { Module } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import type { Options as PinoHttpOptions } from 'pino-http';
import { AppConfig } from '../../config/app-config';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

type WithRequestId = IncomingMessage & { id?: string | number | object };

/**
 * A caller's X-Request-Id when it is sane, else a fresh one; echoed on the response. Assigned by
 * the first middleware (see app.factory.ts) so even requests refused by the body parser carry it.
 */
export function requestIdFor(request: WithRequestId, response: ServerResponse): string {
  if (typeof request.id === 'string') return request.id;
  const given = request.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  response.setHeader('X-Request-Id', id);
  request.id = id;
  return id;
}

/**
 * What a log line tells of a request: enough to find it again, and no header that could carry a
 * credential (Authorization, X-Credential and cookies never reach a log line, redacted or not).
 * It is also cheap: pino-http binds it on every request, logged or not.
 */
function requestSummary(request: IncomingMessage & { originalUrl?: string }) {
  return {
    id: (request as WithRequestId).id,
    method: request.method,
    url: withoutBearerCodes(request.originalUrl ?? request.url ?? ''),
    remoteAddress: request.socket?.remoteAddress,
    userAgent: request.headers['user-agent'],
  };
}

/**
 * Codes that admit whoever holds them (a key-proof ceremony's code, an invite code) never reach a
 * log line: the `code` query member, `/key-proofs/<code>` and `/spaces/invites|join/<code>`.
 */
export function withoutBearerCodes(url: string): string {
  return url
    .replace(/([?&]code=)[^&#]*/gi, '$1[redacted]')
    .replace(/^(\/key-proofs\/)[^/?#]+/i, '$1[redacted]')
    .replace(/^(\/spaces\/(?:invites|join)\/)[^/?#]+/i, '$1[redacted]');
}

const responseSummary = (response: ServerResponse) => ({ statusCode: response.statusCode });

/** pino-http settings: the request id on every line; credentials never logged (exported for tests). */
export function httpLoggerOptions(config: Pick<AppConfig, 'LOG_LEVEL'>): PinoHttpOptions {
  return {
    level: config.LOG_LEVEL,
    genReqId: (request: IncomingMessage, response: ServerResponse) => requestIdFor(request, response),
    // The summaries read the raw request and response; wrapping would first copy every header.
    wrapSerializers: false,
    serializers: { req: requestSummary, res: responseSummary },
    autoLogging: { ignore: (request: IncomingMessage) => request.url?.startsWith('/health/') ?? false },
    customLogLevel: (_request: IncomingMessage, response: ServerResponse, error?: Error) =>
      error || response.statusCode >= 500 ? 'error' : response.statusCode >= 400 ? 'warn' : 'info',
  };
}

/** Structured JSON logs (pino) with the request id on every line; credentials never logged. */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({ pinoHttp: httpLoggerOptions(config) }),
    }),
  ],
})
export class LoggingModule {}
