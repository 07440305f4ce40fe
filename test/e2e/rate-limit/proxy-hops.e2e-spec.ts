import request from 'supertest';
import { createMigratedTestDatabase } from '../../support/database';
import { CapturedLog } from '../../support/log-capture';
import { bootLimitedApp, LimitedApp } from './support';

/**
 * TRUST_PROXY as a hop count (docs/decisions/0124-trust-proxy-hops.md). The attack: behind load balancers that append to X-Forwarded-For, the first
 * entry is whatever the client sent, so with TRUST_PROXY=true a client picks a fresh first entry
 * per request and escapes its budget (and the logs name whom it pleases). With a hop count the
 * entry that many places from the right counts: the one the outer balancer appended. The reads
 * budget is 2, so the third read from one client is refused.
 */
describe('client address behind balancers that append (TRUST_PROXY as a hop count, e2e)', () => {
  let databaseUrl: string;
  let drop: () => Promise<void>;
  let twoHops: LimitedApp;
  let oneHop: LimitedApp;
  // The file's first app: nestjs-pino builds one root logger per process, from the first settings.
  const log = new CapturedLog();

  const read = (t: LimitedApp, forwardedFor: string) =>
    request(t.http).get('/v1/spaces').set('X-Forwarded-For', forwardedFor);

  beforeAll(async () => {
    ({ url: databaseUrl, drop } = await createMigratedTestDatabase());
    const env = { REDIS_URL: undefined, RATE_LIMIT_IP_READS: '2', LOG_LEVEL: 'info' };
    twoHops = await bootLimitedApp({ databaseUrl, env: { ...env, TRUST_PROXY: '2' }, override: log.install });
    oneHop = await bootLimitedApp({ databaseUrl, env: { ...env, TRUST_PROXY: '1' } });
  });

  afterAll(async () => {
    await twoHops?.close();
    await oneHop?.close();
    await drop?.();
  });

  /** The logged client address of a request, once its access line is in. */
  const loggedAddress = async (requestId: string) => {
    for (let i = 0; i < 100 && log.linesOf(requestId).length === 0; i++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    return log.linesOf(requestId)[0]?.req?.remoteAddress;
  };

  it('with 2, a spoofed leftmost entry changes neither the budget nor the logged address', async () => {
    // The client 198.51.100.30 sends X-Forwarded-For itself, a new value each time; the outer
    // balancer appends 198.51.100.30, the inner one the outer's address 10.0.0.2.
    const spoofed = (first: string) => `${first}, 198.51.100.30, 10.0.0.2`;
    expect((await read(twoHops, spoofed('203.0.113.1'))).headers['ratelimit-remaining']).toBe('1');
    const second = await read(twoHops, spoofed('203.0.113.2')).set('X-Request-Id', 'hops-2');
    expect(second.headers['ratelimit-remaining']).toBe('0');
    expect(await loggedAddress('hops-2')).toBe('198.51.100.30');
    const third = await read(twoHops, '203.0.113.3, 203.0.113.4, 198.51.100.30, 10.0.0.2');
    expect(third.status).toBe(429);
    expect(log.text).not.toContain('203.0.113.');
    // Another client behind the same balancers has a budget of its own.
    expect((await read(twoHops, '198.51.100.31, 10.0.0.2')).headers['ratelimit-remaining']).toBe('1');
  });

  it('with 1, the rightmost entry is the client, whatever comes before it', async () => {
    expect((await read(oneHop, '203.0.113.1, 198.51.100.40')).headers['ratelimit-remaining']).toBe('1');
    expect((await read(oneHop, '203.0.113.2, 198.51.100.40')).headers['ratelimit-remaining']).toBe('0');
    expect((await read(oneHop, '198.51.100.40')).status).toBe(429);
    expect((await read(oneHop, '198.51.100.40, 198.51.100.41')).headers['ratelimit-remaining']).toBe('1');
  });
});
