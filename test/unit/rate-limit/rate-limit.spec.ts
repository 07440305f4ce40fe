import { loadConfig } from '../../../src/config/app-config';
import { BudgetTable } from '../../../src/infrastructure/rate-limit/budgets';
import {
  declaredRoutes,
  RateLimitTable,
  routedPath,
} from '../../../src/infrastructure/rate-limit/rate-limit-class';
import { appControllers } from '../../support/app-controllers';
import { clientIp } from '../../../src/infrastructure/rate-limit/client-ip';
import { Clock } from '../../../src/common/clock/clock';
import { MemoryRateLimitStore } from '../../../src/infrastructure/rate-limit/memory-store';

// The per-IP stage's table, built from the service's routes as at boot.
const routeTable = new RateLimitTable(declaredRoutes(appControllers()));
const classify = (method: string, path: string) => routeTable.classify(method, path);

describe('rate-limit configuration', () => {
  it('defaults to the numbers of api-spec.md "Limits"', () => {
    const config = loadConfig({});
    const table = new BudgetTable(config);
    const shape = (budgets: { name: string; scope: string; limit: number; ttl: number }[]) =>
      budgets.map(({ name, scope, limit, ttl }) => ({ name, scope, limit, ttl }));
    expect(config.RATE_LIMIT_DISABLED).toBe(false);
    expect(shape(table.perIp(null))).toEqual([{ name: 'ip:all', scope: 'global', limit: 120, ttl: 60000 }]);
    expect(shape(table.perIp('read'))[0]).toEqual({
      name: 'ip:reads',
      scope: 'query',
      limit: 80,
      ttl: 60000,
    });
    expect(shape(table.perIp('upvote'))[0]).toMatchObject({ scope: 'action', limit: 100 });
    expect(shape(table.perIp('post'))[0]).toMatchObject({ scope: 'create', limit: 30 });
    expect(shape(table.perIp('key-proof-present'))[0]).toMatchObject({ scope: 'sensitive', limit: 10 });
    expect(table.popCapture).toMatchObject({
      scope: 'pop-capture',
      limit: 120,
      ttl: 60000,
      advertised: false,
    });
    expect(shape(table.perGrant(null))).toEqual([
      { name: 'grant:all', scope: 'authenticated', limit: 600, ttl: 60000 },
    ]);
    expect(shape(table.perGrant('read'))[0]).toMatchObject({ scope: 'query', limit: 300 });
    expect(shape(table.perGrant('upvote'))[0]).toMatchObject({ scope: 'action', limit: 100 });
    expect(shape(table.perGrant('post'))[0]).toMatchObject({ scope: 'create', limit: 30 });
    expect(shape(table.perGrant('key-proof-present'))).toEqual(shape(table.perGrant(null)));
  });

  it('matches every row of the Limits table, scope and 60-second window included', () => {
    const table = new BudgetTable(loadConfig({}));
    const row = (budget: { scope: string; limit: number; ttl: number }) => [
      budget.scope,
      budget.limit,
      budget.ttl,
    ];
    // api-spec.md "Limits" and design.md §6, row by row: per IP, then pop-capture, then per grant.
    expect(
      [
        table.perIp(null)[0],
        table.perIp('read')[0],
        table.perIp('upvote')[0],
        table.perIp('post')[0],
        table.perIp('key-proof-present')[0],
        table.popCapture,
        table.perGrant(null)[0],
        table.perGrant('read')[0],
        table.perGrant('upvote')[0],
        table.perGrant('post')[0],
      ].map(row),
    ).toEqual([
      ['global', 120, 60000],
      ['query', 80, 60000],
      ['action', 100, 60000],
      ['create', 30, 60000],
      ['sensitive', 10, 60000],
      ['pop-capture', 120, 60000],
      ['authenticated', 600, 60000],
      ['query', 300, 60000],
      ['action', 100, 60000],
      ['create', 30, 60000],
    ]);
    // Each class budget comes with the all-requests budget of its stage.
    for (const requestClass of ['read', 'upvote', 'post', 'key-proof-present'] as const) {
      expect(table.perIp(requestClass)[1]).toBe(table.ipAll);
    }
    for (const requestClass of ['read', 'upvote', 'post'] as const) {
      expect(table.perGrant(requestClass)[1]).toBe(table.grantAll);
    }
  });

  it('reads every number from the environment and refuses nonsense', () => {
    const config = loadConfig({
      RATE_LIMIT_IP_ALL: '5',
      RATE_LIMIT_WINDOW_MS: '1000',
      RATE_LIMIT_DISABLED: 'true',
    });
    expect(config.RATE_LIMIT_IP_ALL).toBe(5);
    expect(config.RATE_LIMIT_WINDOW_MS).toBe(1000);
    expect(config.RATE_LIMIT_DISABLED).toBe(true);
    expect(() => loadConfig({ RATE_LIMIT_GRANT_POSTS: '0' })).toThrow(/RATE_LIMIT_GRANT_POSTS/);
    expect(() => loadConfig({ RATE_LIMIT_IP_READS: 'many' })).toThrow(/RATE_LIMIT_IP_READS/);
    expect(() => loadConfig({ RATE_LIMIT_REDIS_PREFIX: 'has space' })).toThrow(/RATE_LIMIT_REDIS_PREFIX/);
  });
});

describe('request classes', () => {
  it.each([
    ['GET', '/v1/spaces/s/posts', 'read'],
    ['HEAD', '/anything/at/all', 'read'],
    ['GET', '/v1/spaces/s/posts/p/upvote', 'read'],
    ['PUT', '/v1/spaces/s/posts/p/upvote', 'upvote'],
    ['DELETE', '/v1/spaces/s/posts/p/upvote', 'upvote'],
    ['PUT', '/v1/spaces/s/comments/c/upvote', 'upvote'],
    ['DELETE', '/v1/spaces/s/comments/c/upvote/', 'upvote'],
    ['POST', '/v1/spaces/s/posts/p/upvote', null],
    ['POST', '/v1/spaces/s/posts', 'post'],
    ['PATCH', '/v1/spaces/s/posts/p', 'post'],
    ['DELETE', '/v1/spaces/s/posts/p', 'post'],
    ['POST', '/v1/spaces/s/posts/p/comments', 'post'],
    ['PATCH', '/v1/spaces/s/comments/c', 'post'],
    ['DELETE', '/v1/spaces/s/comments/c', 'post'],
    ['POST', '/v1/spaces/s/media', 'post'],
    ['POST', '/media', 'post'],
    ['POST', '/users', 'post'],
    ['POST', '/V1/SPACES/s/POSTS/', 'post'],
    ['PUT', '/v1/spaces/s/posts/p', null],
    ['POST', '/v1/spaces/s/comments/c', null],
    ['POST', '/spaces', 'post'],
    ['POST', '/relay/proof/v1/operations', 'post'],
    ['POST', '/spaces/s/join', null],
    ['PATCH', '/profile', null],
    ['POST', '/v1/key-proof/present', 'key-proof-present'],
    ['POST', '/v1/Key-Proof/present/', 'key-proof-present'],
    ['POST', '/v1/key-proof/present/x', null],
    ['OPTIONS', '/v1/spaces', null],
  ])('%s %s is %s', (method, path, expected) => {
    expect(classify(method, path)).toEqual({ exempt: false, requestClass: expected, artifact: false });
  });

  it.each([
    '/openapi.json',
    '/v1/openapi.json',
    '/openapi.yaml',
    '/v1/openapi.yaml',
    '/llms.txt',
    '/v1/llms.txt',
  ])('GET %s is a read of a plain-text artifact', (path) => {
    expect(classify('GET', path)).toEqual({ exempt: false, requestClass: 'read', artifact: true });
    expect(classify('POST', path).artifact).toBe(false);
  });

  // /health/dependencies too: it must report a Redis outage that the limiter answers 503 for.
  it.each(['/health/live', '/health/ready', '/health/dependencies', '/Health/Live', '/health/ready/'])(
    '%s is never charged',
    (path) => {
      expect(classify('GET', path).exempt).toBe(true);
    },
  );

  it('does not exempt look-alikes of health', () => {
    expect(classify('GET', '/healthz').exempt).toBe(false);
    expect(classify('GET', '/health').exempt).toBe(false);
    expect(classify('GET', '/health/nope').exempt).toBe(false);
    expect(classify('GET', '/health/dependencies/postgres').exempt).toBe(false);
    expect(classify('GET', '/v1/health/live').exempt).toBe(false);
  });

  it('classifies the path without its query', () => {
    expect(routedPath('/v1/spaces/s/posts?x=/upvote')).toBe('/v1/spaces/s/posts');
    expect(routedPath('/users')).toBe('/users');
  });

  it('sees the path the router routes by', () => {
    expect(routedPath('/v1/spaces/s/posts#x')).toBe('/v1/spaces/s/posts');
    expect(routedPath('http://api.plat.test/v1/spaces/s/posts?a=b')).toBe('/v1/spaces/s/posts');
    expect(routedPath('/v1\\spaces\\s\\posts#')).toBe('/v1/spaces/s/posts');
    expect(routedPath('/v1\\spaces')).toBe('/v1\\spaces');
    expect(classify('POST', routedPath('/v1/spaces/s/posts#x')).requestClass).toBe('post');
  });
});

describe('client IP', () => {
  const ip = (socket: string | undefined, forwarded?: string | string[], trust = false, prefix = 64) =>
    clientIp(socket, forwarded, trust, prefix);

  it('is the socket address unless TRUST_PROXY is set', () => {
    expect(ip('203.0.113.7', '198.51.100.1')).toBe('203.0.113.7');
    expect(ip('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(ip('::1')).toBe('0:0:0:0:0:0:0:0/64');
    expect(ip(undefined)).toBe('unknown');
  });

  it('with TRUST_PROXY is the first X-Forwarded-For hop', () => {
    expect(ip('10.0.0.1', '198.51.100.1', true)).toBe('198.51.100.1');
    expect(ip('10.0.0.1', '198.51.100.1, 10.0.0.9', true)).toBe('198.51.100.1');
    // Spoofing further hops changes nothing.
    expect(ip('10.0.0.1', '198.51.100.1, 1.1.1.1, 2.2.2.2', true)).toBe('198.51.100.1');
    expect(ip('10.0.0.1', ['198.51.100.1', '6.6.6.6'], true)).toBe('198.51.100.1');
    expect(ip('10.0.0.1', '198.51.100.1:4711', true)).toBe('198.51.100.1');
    expect(ip('10.0.0.1', '[2001:db8::1]:4711', true)).toBe('2001:db8:0:0:0:0:0:0/64');
    expect(ip('10.0.0.1', ' 198.51.100.1 ', true)).toBe('198.51.100.1');
  });

  it('falls back to the socket address when the first hop is not an address', () => {
    expect(ip('10.0.0.1', 'unknown, 198.51.100.1', true)).toBe('10.0.0.1');
    expect(ip('10.0.0.1', ',198.51.100.1', true)).toBe('10.0.0.1');
    expect(ip('10.0.0.1', '', true)).toBe('10.0.0.1');
  });

  it('groups IPv6 clients by network', () => {
    expect(ip('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2:0:0:0:0/64');
    expect(ip('2001:db8:1:2:ffff::1')).toBe(ip('2001:db8:1:2::7'));
    expect(ip('2001:db8:1:2:3:4:5:6', undefined, false, 128)).toBe('2001:db8:1:2:3:4:5:6/128');
    expect(ip('2001:db8:1:2:3:4:5:6', undefined, false, 48)).toBe('2001:db8:1:0:0:0:0:0/48');
    expect(ip('fe80::1%eth0')).toBe('fe80:0:0:0:0:0:0:0/64');
    expect(ip('::ffff:c000:0201')).toBe('192.0.2.1');
  });
});

describe('memory store', () => {
  class ManualClock extends Clock {
    t = 1_000_000;
    override now() {
      return new Date(this.t);
    }
  }

  it('counts hits in a window that opens at the first hit and starts over after it', async () => {
    const clock = new ManualClock();
    const store = new MemoryRateLimitStore(clock, 60000);
    expect(await store.increment('k', 60000, 2)).toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
      msToExpire: 60000,
    });
    clock.t += 20500;
    expect(await store.increment('k', 60000, 2)).toMatchObject({
      totalHits: 2,
      isBlocked: false,
      msToExpire: 39500,
    });
    expect(await store.increment('k', 60000, 2)).toMatchObject({
      totalHits: 3,
      isBlocked: true,
      timeToExpire: 40,
      timeToBlockExpire: 40,
    });
    expect(await store.increment('other', 60000, 2)).toMatchObject({ totalHits: 1 });
    clock.t += 39500;
    expect(await store.increment('k', 60000, 2)).toMatchObject({ totalHits: 1, msToExpire: 60000 });
  });

  it('drops closed windows', async () => {
    const clock = new ManualClock();
    const store = new MemoryRateLimitStore(clock, 1000);
    await store.increment('a', 1000, 5);
    await store.increment('b', 5000, 5);
    clock.t += 1000;
    await store.increment('c', 1000, 5);
    expect(store.size).toBe(2);
  });
});
