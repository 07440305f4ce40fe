import type { InstrumentationBase } from '@opentelemetry/instrumentation';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { packageVersion } from '../runtime/build-info';
import { markTracingEnabled } from './trace-context';

/** Probes and scrapes are not traced: they would be most spans and tell nothing. */
const UNTRACED_PATHS = /^\/(health\/|metrics$)/;

let sdk: NodeSDK | undefined;
let instrumentations: InstrumentationBase[] = [];

/** The instrumentations of the running SDK (under Jest, test/support/in-memory-tracing.ts applies their patches). */
export function tracingInstrumentations(): readonly InstrumentationBase[] {
  return instrumentations;
}

/**
 * Starts the OpenTelemetry SDK: spans of incoming and outgoing HTTP (S3 included: the AWS SDK
 * speaks node:https, and the outgoing span carries `traceparent`), Express routes, PostgreSQL and
 * Redis (BullMQ's too), exported as OpenTelemetry's environment variables say (OTLP over
 * http/protobuf by default). Only traces: metrics are Prometheus, logs are pino. Loaded only when
 * tracing is on (src/tracing.ts), before the modules it instruments are required. Tests pass their
 * own span processors (an in-memory exporter).
 */
export function startTracing(options: { spanProcessors?: SpanProcessor[] } = {}): void {
  if (sdk) return;
  instrumentations = [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.test(request.url?.split('?', 1)[0] ?? ''),
    }),
    // The route names the request's span (`GET /v1/spaces/:space/posts`); a span per middleware
    // (a dozen a request) would only add cost.
    new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
    new PgInstrumentation(),
    // The command name only: arguments hold keys and values (client addresses, cached identities).
    new IORedisInstrumentation({ dbStatementSerializer: (command) => command }),
  ];
  sdk = new NodeSDK({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: process.env.OTEL_SERVICE_NAME?.trim() || 'plat-api',
      [ATTR_SERVICE_VERSION]: packageVersion(),
    }),
    spanProcessors: options.spanProcessors,
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations,
  });
  sdk.start();
  // Nest's packages are ES modules, and their `import express` is not seen by the require hook
  // that patches a module as it loads. The patches go on Express's shared prototypes, so loading
  // it once here, through require, patches the copy Nest imports too.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('express');
  markTracingEnabled();
}

/** Exports the spans still buffered; called once at shutdown. */
export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  await running?.shutdown().catch(() => undefined);
}
