import { Module } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import pino, { type DestinationStream, type LogFn, type Logger } from 'pino';
import type { Options as PinoHttpOptions } from 'pino-http';
import { AppConfig } from '../../config/app-config';
import { clientAddress, TrustProxy } from '../http/client-address';
import { requestScopes } from '../http/request-scope';
import { activeSpanIds } from '../tracing/trace-context';
import { redactText, redactUrl } from './log-redaction';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** W3C Trace Context `traceparent`, version 00: version-traceid-parentid-flags, lowercase hex. */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;
const ZEROS = /^0+$/;

/** The caller's trace, from a valid `traceparent`. */
export interface TraceContext {
  traceId: string;
  /** The caller's span (or, for a trace started here, the request's own): the parent of what it does. */
  parentSpanId: string;
}

type WithRequestId = IncomingMessage & { id?: string | number | object; trace?: TraceContext };

/**
 * The request id, echoed as X-Request-Id: the trace id of a valid `traceparent` (so the log lines
 * of one trace share it across services), else a caller's sane X-Request-Id, else a fresh UUID.
 * Assigned by the first middleware (see app.factory.ts) so even requests refused by the body parser
 * carry it. An invalid `traceparent` is ignored, as W3C Trace Context says.
 */
export function requestIdFor(request: WithRequestId, response: ServerResponse): string {
  if (typeof request.id === 'string') return request.id;
  // Tracing on, a request that came without a trace starts one here: its server span's.
  const trace = traceContextOf(request.headers.traceparent) ?? ownTrace();
  let id: string;
  if (trace) {
    request.trace = trace;
    id = trace.traceId;
  } else {
    const given = request.headers['x-request-id'];
    id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  }
  response.setHeader('X-Request-Id', id);
  request.id = id;
  return id;
}

/** With tracing on, the trace the request's server span started (docs/decisions/0123-traces-and-job-metrics.md). */
function ownTrace(): TraceContext | undefined {
  const span = activeSpanIds();
  return span && { traceId: span.traceId, parentSpanId: span.spanId };
}

/** The trace of a `traceparent` header, or undefined when absent, repeated or invalid. */
export function traceContextOf(header: string | string[] | undefined): TraceContext | undefined {
  if (typeof header !== 'string') return undefined;
  const match = TRACEPARENT.exec(header);
  if (!match || ZEROS.test(match[1]) || ZEROS.test(match[2])) return undefined;
  return { traceId: match[1], parentSpanId: match[2] };
}

/**
 * What a log line tells of a request: enough to find it again, and no header that could carry a
 * credential (Authorization, X-Credential and cookies never reach a log line, redacted or not), no
 * secret of its URL (`redactUrl`), and the client's address as TRUST_PROXY says, the one the rate
 * limiter counts.
 */
export function requestSummaryFor(trustProxy: TrustProxy) {
  return (request: WithRequestId & { originalUrl?: string }) => ({
    id: request.id,
    // Absent (so not logged) without a valid traceparent.
    traceId: request.trace?.traceId,
    parentSpanId: request.trace?.parentSpanId,
    method: request.method,
    url: redactUrl(request.originalUrl ?? request.url ?? ''),
    // Without TRUST_PROXY the socket's peer, as Node gives it (the rate limiter strips a zone).
    remoteAddress: trustProxy
      ? clientAddress(request.socket?.remoteAddress, request.headers['x-forwarded-for'], trustProxy)
      : request.socket?.remoteAddress,
    userAgent: request.headers['user-agent'],
  });
}

const responseSummary = (response: ServerResponse) => ({ statusCode: response.statusCode });

/**
 * The root logger's settings: lines logged while a request runs carry its summary (`req`, found in
 * its scope: no child logger per request); credentials never logged (exported for tests).
 */
export function loggerOptions(
  config: Pick<AppConfig, 'LOG_LEVEL'> & Partial<Pick<AppConfig, 'TRUST_PROXY'>>,
): PinoHttpOptions {
  return {
    level: config.LOG_LEVEL,
    // nestjs-pino builds the root logger through pino-http, whose wrapping would hand the
    // summaries a copy of the request (without its socket) instead of the request.
    wrapSerializers: false,
    serializers: {
      req: requestSummaryFor(config.TRUST_PROXY ?? false),
      res: responseSummary,
      err: redactedError,
      // A line that names a URL as a field (`{ url }`) gets it redacted like a message.
      url: (url: unknown) => (typeof url === 'string' ? redactText(url) : url),
    },
    mixin: () => {
      const request = requestScopes.getStore()?.request;
      return request ? { req: request } : {};
    },
    // A message may quote a URL (an outbound call's, a job's, an error's); its secrets go too.
    hooks: { logMethod: redactMessages },
  };
}

/** pino's error serializer, with any URL secret in the message or stack redacted. */
function redactedError(error: Error): ReturnType<typeof pino.stdSerializers.err> {
  const serialized = pino.stdSerializers.err(error);
  if (typeof serialized?.message === 'string') serialized.message = redactText(serialized.message);
  if (typeof serialized?.stack === 'string') serialized.stack = redactText(serialized.stack);
  return serialized;
}

/**
 * The `logMethod` hook: string arguments (the message and its format arguments) redacted. An
 * error logged alone would give pino its message unredacted as the line's `msg`: it gets the
 * redacted one.
 */
function redactMessages(this: Logger, args: Parameters<LogFn>, method: LogFn): void {
  // pino hands the hook an array of its own: rewritten in place, nothing allocated per line.
  const values = args as unknown[];
  for (let index = 0; index < values.length; index++) {
    const value = values[index];
    if (typeof value === 'string') values[index] = redactText(value);
  }
  if (values.length === 1 && values[0] instanceof Error) values.push(redactText(values[0].message));
  (method as (...all: unknown[]) => void).apply(this, values);
}

/** Where the log lines go: standard output (`logDestination`); tests capture them by replacing it. */
export const LOG_DESTINATION = Symbol('LOG_DESTINATION');

/**
 * Standard output, written synchronously: one write(2) per line on the request's own thread, as
 * Node writes `process.stdout` to a file or a pipe. pino's default destination is asynchronous: each
 * batch is an `fs.write` on libuv's thread pool, a hand-off to another thread and back that cost a
 * pinned replica more than the line itself (docs/decisions/0096-log-lines-are-written-synchronously.md).
 */
export function logDestination(fd = 1) {
  return pino.destination({ dest: fd, sync: true });
}

/**
 * Structured JSON logs (pino) with the request id on every line; credentials never logged. The
 * access line is written by AccessLog (one line per request, no child logger), so nestjs-pino's
 * own pino-http middleware is mounted on no route.
 */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      providers: [{ provide: LOG_DESTINATION, useFactory: () => logDestination() }],
      inject: [AppConfig, LOG_DESTINATION],
      useFactory: (config: AppConfig, destination: DestinationStream) => ({
        pinoHttp: [loggerOptions(config), destination],
        forRoutes: [],
      }),
    }),
  ],
})
export class LoggingModule {}
