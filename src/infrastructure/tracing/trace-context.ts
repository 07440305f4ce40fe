import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Attributes } from '@opentelemetry/api';

/**
 * The W3C trace context (`traceparent`, `tracestate`) of the work that queued a job, stored with
 * the job so the job's span continues the caller's trace (docs/decisions/0123-traces-and-job-metrics.md).
 */
export type TraceCarrier = Record<string, string>;

/** Set once by the tracing bootstrap (src/tracing.ts); false, nothing here touches the API. */
let enabled = false;

export function markTracingEnabled(): void {
  enabled = true;
}

export function tracingEnabled(): boolean {
  return enabled;
}

/** The active trace context to carry into a job, or undefined (tracing off, or no active span). */
export function captureTraceContext(): TraceCarrier | undefined {
  if (!enabled) return undefined;
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? carrier : undefined;
}

/** The active span's trace and span ids (tracing on, inside a span), e.g. a request's server span. */
export function activeSpanIds(): { traceId: string; spanId: string } | undefined {
  if (!enabled) return undefined;
  const span = trace.getActiveSpan()?.spanContext();
  return span && trace.isSpanContextValid(span) ? { traceId: span.traceId, spanId: span.spanId } : undefined;
}

/**
 * Runs `work` in a span of its own, a child of `carrier`'s span when there is one (a new trace
 * otherwise, e.g. a scheduled job), so what the work does (SQL, Redis, S3 over HTTP) joins it.
 * With tracing off, just runs `work`.
 */
export async function inSpan<T>(
  name: string,
  carrier: TraceCarrier | undefined,
  attributes: Attributes,
  work: () => Promise<T>,
): Promise<T> {
  if (!enabled) return work();
  const parent = carrier ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT;
  const tracer = trace.getTracer('plat-api');
  return tracer.startActiveSpan(name, { kind: SpanKind.CONSUMER, attributes }, parent, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
      throw error;
    } finally {
      span.end();
    }
  });
}
