import { tracingRequested } from './infrastructure/tracing/tracing-settings';

type OtelSdk = typeof import('./infrastructure/tracing/otel-sdk');

/**
 * A synchronous require, loaded only when tracing is on: an import() would run only after main.ts's
 * other imports, and a static import would load the SDK when tracing is off.
 */
function loadSdk(): OtelSdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./infrastructure/tracing/otel-sdk') as OtelSdk;
}

/*
 * Imported first by main.ts: OpenTelemetry's instrumentations patch http, express, pg and ioredis
 * as they are required, so the SDK must start before anything requires them. Off (neither
 * OTEL_EXPORTER_OTLP_ENDPOINT nor OTEL_TRACES_EXPORTER), the SDK is not even loaded
 * (docs/decisions/0123-traces-and-job-metrics.md).
 */
if (tracingRequested(process.env)) loadSdk().startTracing();

/** Exports buffered spans before the process exits (nothing to do when tracing is off). */
export async function stopTracing(): Promise<void> {
  if (tracingRequested(process.env)) await loadSdk().stopTracing();
}
