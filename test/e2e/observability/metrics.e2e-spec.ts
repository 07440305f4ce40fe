import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { Metrics } from '../../../src/infrastructure/metrics/metrics';
import { MetricsServer } from '../../../src/infrastructure/metrics/metrics-server';
import { bootApp, TestApp } from '../../support/app';
import { createMigratedTestDatabase } from '../../support/database';

const NOT_FOUND = '{"code":"E_NOT_FOUND","message":"Not found"}';

/** One sample of the exposition text, e.g. `http_requests_total{method="GET",...} 3`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = match[2] ? match[2].split(/,(?=\w+=")/) : [];
    if (wanted.every((label) => present.includes(label)) && present.length === wanted.length) {
      return Number(match[3]);
    }
  }
  return undefined;
}

/**
 * Prometheus metrics on a port of their own (docs/decisions/0064-observability-metrics-traceparent-and-hpa.md): request rate, latency and errors
 * per route template and status, the database pool, Redis, rate-limit refusals and process
 * metrics; never on the API port, never in the OpenAPI document, off unless METRICS_PORT is set.
 */
describe('metrics (e2e)', () => {
  let t: TestApp;
  let drop: () => Promise<void>;
  let port: number;

  const scrape = async (path = '/metrics') => fetch(`http://127.0.0.1:${port}${path}`);
  const metricsText = async () => {
    const response = await scrape();
    expect(response.status).toBe(200);
    return response.text();
  };

  beforeAll(async () => {
    const database = await createMigratedTestDatabase();
    drop = database.drop;
    t = await bootApp({
      databaseUrl: database.url,
      env: { METRICS_PORT: '0', TRUST_PROXY: 'true', RATE_LIMIT_IP_READS: '2' },
    });
    port = t.app.get(MetricsServer).port!;
  });

  afterAll(async () => {
    await t?.close();
    await drop();
  });

  it('counts requests and times them per route template and status, never per raw path', async () => {
    const from = (ip: string) => ({ 'X-Forwarded-For': ip });
    expect((await request(t.http).get('/v1/spaces').set(from('192.0.2.1'))).status).toBe(200);
    const hidden = await request(t.http).get('/v1/spaces/no-such-space-4711/posts').set(from('192.0.2.2'));
    expect(hidden.status).toBe(404);
    expect((await request(t.http).get('/no/such/route/4711').set(from('192.0.2.3'))).status).toBe(404);

    const text = await metricsText();
    const listing = { method: 'GET', route: '/v1/spaces', status: '200' };
    expect(sample(text, 'http_requests_total', listing)).toBe(1);
    const posts = { method: 'GET', route: '/v1/spaces/:space/posts', status: '404' };
    expect(sample(text, 'http_requests_total', posts)).toBe(1);
    const unknown = { method: 'GET', route: 'unmatched', status: '404' };
    expect(sample(text, 'http_requests_total', unknown)).toBe(1);
    // In no label (a sample's value, e.g. memory in bytes, may contain the digits by chance).
    expect(text).not.toMatch(/\{[^}\n]*4711[^}\n]*\}/);

    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(sample(text, 'http_request_duration_seconds_count', listing)).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_bucket', { le: '+Inf', ...listing })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_sum', listing)).toBeGreaterThan(0);
  });

  it('counts rate-limit refusals per scope, and the 429s among the requests', async () => {
    const before = sample(await metricsText(), 'rate_limit_refusals_total', { scope: 'query' }) ?? 0;
    const read = () => request(t.http).get('/v1/spaces').set('X-Forwarded-For', '192.0.2.50');
    expect((await read()).status).toBe(200);
    expect((await read()).status).toBe(200);
    expect((await read()).status).toBe(429);

    const text = await metricsText();
    expect(sample(text, 'rate_limit_refusals_total', { scope: 'query' })).toBe(before + 1);
    // Refused before routing: no route template is known yet.
    expect(sample(text, 'http_requests_total', { method: 'GET', route: 'unmatched', status: '429' })).toBe(1);
  });

  it('exposes the database pool, Redis when configured, the job queue, and process metrics', async () => {
    const text = await metricsText();
    expect(text).toContain('# TYPE jobs_queue_depth gauge');
    expect(sample(text, 'db_pool_max_connections')).toBe(10);
    expect(sample(text, 'db_pool_connections')).toBeGreaterThan(0);
    expect(sample(text, 'db_pool_idle_connections')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'db_pool_waiting_clients')).toBe(0);
    if (process.env.REDIS_URL) {
      expect(sample(text, 'redis_up')).toBe(1);
      expect(sample(text, 'redis_connection_errors_total')).toBeDefined();
    } else {
      expect(text).not.toContain('redis_up');
    }
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
  });

  it('serves only GET /metrics on its port, in the Prometheus text format, uncounted', async () => {
    const response = await scrape();
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect((await scrape('/')).status).toBe(404);
    expect((await scrape('/v1/spaces')).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`, { method: 'POST' })).status).toBe(404);
    // Scrapes are not API requests: no series names the metrics path.
    expect(await metricsText()).not.toContain('route="/metrics"');
  });

  it('is absent from the API port (the constant 404) and from the OpenAPI document', async () => {
    const onApi = await request(t.http).get('/metrics').set('X-Forwarded-For', '192.0.2.99');
    expect(onApi.status).toBe(404);
    expect(onApi.text).toBe(NOT_FOUND);
    const served = await request(t.http).get('/openapi.json').set('X-Forwarded-For', '192.0.2.98');
    expect(Object.keys(served.body.paths).filter((path) => path.includes('metrics'))).toEqual([]);
    const committed = JSON.parse(readFileSync(join(__dirname, '../../../docs/openapi.json'), 'utf8'));
    expect(Object.keys(committed.paths).filter((path) => path.includes('metrics'))).toEqual([]);
  });

  it('is off by default: no server, nothing recorded', async () => {
    const plain = await bootApp({ databaseUrl: t.databaseUrl });
    try {
      expect(plain.config.METRICS_PORT).toBeUndefined();
      expect(plain.app.get(MetricsServer).port).toBeNull();
      const metrics = plain.app.get(Metrics);
      expect(metrics.enabled).toBe(false);
      await request(plain.http).get('/v1/spaces');
      expect(await metrics.registry.getSingleMetricAsString('http_requests_total')).not.toMatch(/status=/);
    } finally {
      await plain.close();
    }
  });
});
