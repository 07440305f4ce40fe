import { readFileSync } from 'node:fs';
import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  startTracing,
  stopTracing,
  tracingInstrumentations,
} from '../../src/infrastructure/tracing/otel-sdk';

/**
 * Import first in a test file (before the app and its http, pg and ioredis): starts the service's
 * OpenTelemetry SDK as src/tracing.ts does, exporting every span to memory at once.
 */
export const finishedSpans = new InMemorySpanExporter();

startTracing({ spanProcessors: [new SimpleSpanProcessor(finishedSpans)] });

/**
 * Jest loads modules through a registry of its own, which the instrumentations' require hook never
 * sees (in a real process the hook patches each module as it loads). So the patches are applied
 * here, by hand, to the copies the app under test will get. Express's are not: they patch files
 * inside the router; the HTTP server span stands for the request.
 */
const PATCHED_HERE = ['http', 'https', 'pg', 'ioredis'];
const unpatches: (() => void)[] = [];
for (const instrumentation of tracingInstrumentations()) {
  for (const definition of instrumentation.getModuleDefinitions()) {
    if (!PATCHED_HERE.includes(definition.name) || !definition.patch) continue;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const moduleExports: unknown = require(definition.name);
    definition.moduleExports = moduleExports;
    definition.patch(moduleExports, versionOf(definition.name));
    unpatches.push(() => definition.unpatch?.(moduleExports));
  }
}

/**
 * Call in the file's afterAll. Node's own modules (http, https) and the API's globals outlive the
 * file in its Jest worker: left patched, every later file's HTTP client would send a `traceparent`
 * of its own, which the app takes as the request id.
 */
export async function stopInMemoryTracing(): Promise<void> {
  for (const unpatch of unpatches.splice(0)) unpatch();
  await stopTracing();
  trace.disable();
  context.disable();
  propagation.disable();
}

function versionOf(name: string): string | undefined {
  if (name === 'http' || name === 'https') return process.versions.node;
  const manifest = readFileSync(require.resolve(`${name}/package.json`), 'utf8');
  return (JSON.parse(manifest) as { version: string }).version;
}
