import request from 'supertest';
import { createMigratedTestDatabase } from '../../support/database';
import { bootLimitedApp, LimitedApp } from './support';

/**
 * Which address a request is counted under (design.md §6), seen from outside: the socket address,
 * or the first X-Forwarded-For hop only with TRUST_PROXY; IPv6 per /64 (RATE_LIMIT_IPV6_PREFIX).
 * The reads budget is 2, so the third read from one tracker is refused.
 */
describe('client address of the per-IP budgets (e2e)', () => {
  let databaseUrl: string;
  let drop: () => Promise<void>;
  let direct: LimitedApp;
  let proxied: LimitedApp;

  const read = (t: LimitedApp, forwardedFor?: string) => {
    const call = request(t.http).get('/v1/spaces');
    return forwardedFor === undefined ? call : call.set('X-Forwarded-For', forwardedFor);
  };

  beforeAll(async () => {
    ({ url: databaseUrl, drop } = await createMigratedTestDatabase());
    const env = { REDIS_URL: undefined, RATE_LIMIT_IP_READS: '2' };
    direct = await bootLimitedApp({ databaseUrl, env: { ...env, TRUST_PROXY: 'false' } });
    proxied = await bootLimitedApp({ databaseUrl, env: { ...env, TRUST_PROXY: 'true' } });
  });

  afterAll(async () => {
    await direct.close();
    await proxied.close();
    await drop();
  });

  it('without TRUST_PROXY counts the socket address, whatever X-Forwarded-For says', async () => {
    expect((await read(direct, '192.0.2.1')).headers['ratelimit-remaining']).toBe('1');
    expect((await read(direct, '192.0.2.2')).headers['ratelimit-remaining']).toBe('0');
    const refused = await read(direct, '192.0.2.3, 192.0.2.4');
    expect(refused.status).toBe(429);
    expect(refused.body.scope).toBe('query');
    expect((await read(direct)).status).toBe(429);
  });

  it('with TRUST_PROXY counts the first hop; hops added after it change nothing', async () => {
    expect((await read(proxied, '192.0.2.10')).status).toBe(200);
    expect((await read(proxied, '192.0.2.10, 192.0.2.99')).status).toBe(200);
    expect((await read(proxied, '192.0.2.10, 10.0.0.1, 10.0.0.2')).status).toBe(429);
    // Another client behind the same proxy has a budget of its own.
    expect((await read(proxied, '192.0.2.11, 192.0.2.10')).headers['ratelimit-remaining']).toBe('1');
  });

  it('counts IPv6 clients per /64 and IPv4-mapped addresses as IPv4', async () => {
    expect((await read(proxied, '2001:db8:1:2::1')).headers['ratelimit-remaining']).toBe('1');
    expect((await read(proxied, '[2001:db8:1:2:ffff::7]:443')).headers['ratelimit-remaining']).toBe('0');
    expect((await read(proxied, '2001:db8:1:2:abcd::9')).status).toBe(429);
    expect((await read(proxied, '2001:db8:1:3::1')).headers['ratelimit-remaining']).toBe('1');

    expect((await read(proxied, '192.0.2.20')).headers['ratelimit-remaining']).toBe('1');
    expect((await read(proxied, '::ffff:192.0.2.20')).headers['ratelimit-remaining']).toBe('0');
  });
});
