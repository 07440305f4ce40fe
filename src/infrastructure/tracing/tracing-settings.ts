/**
 * Whether OpenTelemetry tracing is on, read from OpenTelemetry's own environment variables: on when
 * an OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) or a traces
 * exporter (`OTEL_TRACES_EXPORTER`) is set, off when `OTEL_TRACES_EXPORTER=none` or
 * `OTEL_SDK_DISABLED=true` (docs/decisions/0123-traces-and-job-metrics.md).
 */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  if (exporters.includes('none')) return false;
  return (
    exporters.length > 0 ||
    Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()) ||
    Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim())
  );
}
