import { tracingRequested } from '../../../src/infrastructure/tracing/tracing-settings';

/**
 * Tracing is off unless OpenTelemetry's own environment asks for it (an OTLP endpoint or a traces
 * exporter), and OpenTelemetry's ways of turning it off win
 * (docs/decisions/0123-traces-and-job-metrics.md).
 */
describe('tracingRequested (OpenTelemetry environment conventions)', () => {
  it.each([
    [{}, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, true],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, true],
    [{ OTEL_TRACES_EXPORTER: 'console' }, true],
    [{ OTEL_TRACES_EXPORTER: ' ' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }, false],
    [{ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, false],
    [{ OTEL_TRACES_EXPORTER: 'otlp,none' }, false],
    [{ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' }, false],
    [{ OTEL_SDK_DISABLED: 'false', OTEL_TRACES_EXPORTER: 'otlp' }, true],
    // Other OTEL_* settings alone (a service name, a protocol) do not turn it on.
    [{ OTEL_SERVICE_NAME: 'plat-api', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, false],
  ])('%j → %s', (env, on) => {
    expect(tracingRequested(env as NodeJS.ProcessEnv)).toBe(on);
  });
});
