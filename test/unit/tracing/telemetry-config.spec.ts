import { ConfigValidationError, loadConfig } from '../../../src/config/app-config';

/**
 * The OpenTelemetry variables the service documents are validated at boot (the SDK reads them
 * itself, before the config, so a typo would otherwise pass silently), and the commit
 * `plat_build_info` names is a setting (docs/decisions/0123-traces-and-job-metrics.md).
 */
describe('telemetry settings', () => {
  it('accepts OpenTelemetry’s endpoint, exporters and service name, and a commit id', () => {
    const config = loadConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector.monitoring:4318',
      OTEL_TRACES_EXPORTER: 'otlp, console',
      OTEL_SERVICE_NAME: 'plat-worker',
      PLAT_COMMIT: '2798288f0c',
    });
    expect(config.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://otel-collector.monitoring:4318');
    expect(config.OTEL_TRACES_EXPORTER).toBe('otlp, console');
    expect(config.OTEL_SERVICE_NAME).toBe('plat-worker');
    expect(config.PLAT_COMMIT).toBe('2798288f0c');
  });

  it('leaves them unset by default (tracing off, commit "unknown" in plat_build_info)', () => {
    const config = loadConfig({});
    expect(config.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    expect(config.OTEL_TRACES_EXPORTER).toBeUndefined();
    expect(config.PLAT_COMMIT).toBeUndefined();
  });

  it.each([
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'otel-collector:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
    [{ OTEL_TRACES_EXPORTER: 'jaeger' }, 'OTEL_TRACES_EXPORTER must list otlp, console, zipkin or none'],
    [{ PLAT_COMMIT: 'abc def' }, 'PLAT_COMMIT must be a commit id'],
  ])('refuses %j, naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigValidationError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
