import request, { Response } from 'supertest';
import { Clock } from '../../../src/common/clock/clock';
import { DEPENDENCY_REPORT_REUSE_MS } from '../../../src/infrastructure/health/dependency-check';
import { ShutdownState } from '../../../src/infrastructure/health/shutdown-state';
import { MetricsServer } from '../../../src/infrastructure/metrics/metrics-server';
import { SharedRedis } from '../../../src/infrastructure/redis/shared-redis';
import { bootApp, TestApp } from '../../support/app';
import { TcpRelay } from '../../support/network';

const REDIS_URL = process.env.REDIS_URL;

/** Time that moves only when the test says (the report's reuse window is read by it). */
class SteppedClock extends Clock {
  at = Date.now();

  override now(): Date {
    return new Date(this.at);
  }
}

/**
 * Readiness answers for this replica (booted, not draining, its pool not wedged),
 * not for PostgreSQL or Redis, which every replica shares. The attack it answers: PostgreSQL goes
 * away, every replica's readiness used to fail at once, the load balancer dropped them all and
 * clients got its own HTML 503 instead of the service's JSON envelope. Now readiness stays 200,
 * every request that needs the database answers the envelope itself, and the shared state is in
 * `/health/dependencies` (always 200) and `postgres_up` / `redis_up`.
 * (docs/decisions/0119-readiness-without-shared-dependencies.md)
 */
describe('health during shared outages (0119-readiness-without-shared-dependencies, e2e)', () => {
  const clock = new SteppedClock();
  let postgres: TcpRelay;
  let redis: TcpRelay | undefined;
  let t: TestApp;

  beforeAll(async () => {
    const server = new URL(process.env.TEST_DATABASE_ADMIN_URL!);
    postgres = await TcpRelay.start({ host: server.hostname, port: Number(server.port || 5432) });
    if (REDIS_URL) {
      const target = new URL(REDIS_URL);
      redis = await TcpRelay.start({ host: target.hostname, port: Number(target.port || 6379) });
    }
    t = await bootApp({
      routeDatabase: (url) => postgres.route(url),
      env: {
        REDIS_URL: redis ? redis.route(REDIS_URL!) : '',
        METRICS_PORT: '0',
        DATABASE_ACQUIRE_TIMEOUT_MS: '2500',
        DATABASE_STATEMENT_TIMEOUT_MS: '2000',
      },
      override: (builder) => builder.overrideProvider(Clock).useValue(clock),
    });
  });

  afterEach(async () => {
    await postgres.restore();
    await redis?.restore();
    t.app.get(ShutdownState).draining = false;
  });

  afterAll(async () => {
    await t?.close();
    await postgres?.close();
    await redis?.close();
  });

  const ready = () => request(t.http).get('/health/ready');
  const live = () => request(t.http).get('/health/live');
  /** A fresh report: past the reuse window of the last one. */
  const dependencies = () => {
    clock.at += DEPENDENCY_REPORT_REUSE_MS;
    return request(t.http).get('/health/dependencies');
  };
  const dataRoute = () => request(t.http).get('/v1/users');
  const scrape = async () => {
    const response = await fetch(`http://127.0.0.1:${t.app.get(MetricsServer).port}/metrics`);
    return response.text();
  };

  /** The service's own 503 (design.md §5); api-spec.md's 503 carries no Retry-After. */
  function expectEnvelope503(response: Response, message: string): void {
    expect(response.status).toBe(503);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toEqual({ code: 'E_SERVICE_UNAVAILABLE', message });
    expect(response.headers['retry-after']).toBeUndefined();
  }

  async function untilServing(): Promise<void> {
    for (let tries = 0; tries < 100; tries++) {
      const report = (await dependencies()).body;
      if (report.status === 'ok' && (await dataRoute()).status === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('never served again');
  }

  it('everything up: ready {status: ok}; dependencies lists both with their latency', async () => {
    const readiness = await ready();
    expect(readiness.status).toBe(200);
    expect(readiness.body).toEqual({ status: 'ok' });
    const report = await dependencies();
    expect(report.status).toBe(200);
    expect(report.headers['cache-control']).toBe('no-store');
    expect(report.body).toEqual({
      status: 'ok',
      checkedAt: clock.now().toISOString(),
      dependencies: {
        postgres: { status: 'up', latencyMs: expect.any(Number) },
        redis: REDIS_URL ? { status: 'up', latencyMs: expect.any(Number) } : { status: 'not_configured' },
      },
    });
    expect(report.body.dependencies.postgres.latencyMs).toBeLessThan(1000);
  });

  it('PostgreSQL cut: ready and live stay 200, data routes answer the JSON 503, dependencies say postgres down', async () => {
    await postgres.cut();
    // The attack: on main this was 503 on every replica at once.
    const readiness = await ready();
    expect(readiness.status).toBe(200);
    expect(readiness.body).toEqual({ status: 'ok' });
    expect((await live()).status).toBe(200);
    expectEnvelope503(await dataRoute(), 'Service temporarily unavailable');

    const report = await dependencies();
    expect(report.status).toBe(200);
    expect(report.body.status).toBe('degraded');
    expect(report.body.dependencies.postgres).toEqual({
      status: 'down',
      latencyMs: expect.any(Number),
      reason: 'error',
    });
    if (REDIS_URL) expect(report.body.dependencies.redis.status).toBe('up');
    expect(await scrape()).toMatch(/^postgres_up 0$/m);

    await postgres.restore();
    await untilServing();
    expect(await scrape()).toMatch(/^postgres_up 1$/m);
  });

  it('PostgreSQL blackholed (a partition): ready answers 200 within a probe timeout; postgres reported as timing out', async () => {
    postgres.blackhole();
    const started = Date.now();
    expect((await ready()).status).toBe(200);
    // The probe's timeoutSeconds is 2.
    expect(Date.now() - started).toBeLessThan(2000);
    const report = await dependencies();
    expect(report.body.dependencies.postgres).toEqual({
      status: 'down',
      latencyMs: expect.any(Number),
      reason: 'timeout',
    });
    expect(report.body.dependencies.postgres.latencyMs).toBeGreaterThanOrEqual(900);
    await postgres.restore();
    await untilServing();
  });

  (REDIS_URL ? it : it.skip)(
    'Redis cut: ready stays 200, every limited request answers the JSON 503, dependencies say redis down',
    async () => {
      // Only 'close': events.once would reject on the connection's 'error' (the reset) first.
      const closed = new Promise((resolve) => t.app.get(SharedRedis).commands!.once('close', resolve));
      await redis!.cut();
      await closed;
      expect((await ready()).status).toBe(200);
      expectEnvelope503(await dataRoute(), 'Rate limits cannot be checked right now; retry later');
      // The health routes are not charged, so they report the outage the limiter refuses for.
      const report = await dependencies();
      expect(report.status).toBe(200);
      expect(report.body.status).toBe('degraded');
      expect(report.body.dependencies.redis).toEqual({
        status: 'down',
        latencyMs: expect.any(Number),
        reason: 'error',
      });
      expect(report.body.dependencies.postgres.status).toBe('up');
      expect(await scrape()).toMatch(/^redis_up 0$/m);

      await redis!.restore();
      await untilServing();
    },
  );

  it('draining: ready is 503 in the envelope; dependencies and live still answer', async () => {
    t.app.get(ShutdownState).startDraining();
    expectEnvelope503(await ready(), 'Service temporarily unavailable');
    expect((await live()).status).toBe(200);
    expect((await dependencies()).status).toBe(200);
  });

  it('a report is reused for DEPENDENCY_REPORT_REUSE_MS: the anonymous route cannot make the replica query per call', async () => {
    const first = (await dependencies()).body;
    await postgres.cut();
    // Within the window: the same report, the same check time, no new query.
    const reused = (await request(t.http).get('/health/dependencies')).body;
    expect(reused).toEqual(first);
    clock.at += DEPENDENCY_REPORT_REUSE_MS - 1;
    expect((await request(t.http).get('/health/dependencies')).body).toEqual(first);
    clock.at += 1;
    const fresh = (await request(t.http).get('/health/dependencies')).body;
    expect(fresh.checkedAt).toBe(clock.now().toISOString());
    expect(fresh.dependencies.postgres.status).toBe('down');
  });
});
