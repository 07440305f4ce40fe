import { connect } from 'node:net';
import request from 'supertest';
import { createMigratedTestDatabase } from '../../support/database';
import { bootLimitedApp, LimitedApp, proofFor, REDIS_URL, uniquePrefix } from './support';

/** Small limits, each distinct, so a 429's RateLimit-Limit tells which budget refused. */
const LIMITS = {
  RATE_LIMIT_IP_ALL: '10',
  RATE_LIMIT_IP_READS: '4',
  RATE_LIMIT_IP_UPVOTES: '5',
  RATE_LIMIT_IP_POSTS: '3',
  RATE_LIMIT_IP_KEY_PROOF: '2',
  RATE_LIMIT_POP_CAPTURE: '6',
  RATE_LIMIT_GRANT_ALL: '7',
  RATE_LIMIT_GRANT_READS: '5',
  RATE_LIMIT_GRANT_UPVOTES: '3',
  RATE_LIMIT_GRANT_POSTS: '2',
  RATE_LIMIT_WINDOW_MS: '60000',
  TRUST_PROXY: 'true',
};

type Method = 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete';

describe.each([
  ['in memory', undefined],
  ['on Redis', REDIS_URL],
])('rate limits %s (e2e)', (_store, redisUrl) => {
  let t: LimitedApp;
  let drop: () => Promise<void>;
  let ipCounter = 0;
  let grantCounter = 0;
  /** A client address of its own for each test (via X-Forwarded-For, TRUST_PROXY is on). */
  const freshIp = () => `198.51.100.${++ipCounter}`;
  const freshGrant = () => `grant-${++grantCounter}-${Date.now().toString(36)}`;

  const send = (method: Method, path: string, ip: string, authorization?: string) => {
    const call = request(t.http)[method](path).set('X-Forwarded-For', `${ip}, 6.6.6.6`);
    return authorization === undefined ? call : call.set('Authorization', authorization);
  };

  const expectRefused = (response: request.Response, scope: string, limit: number, retryAfterMs = 60000) => {
    expect(response.status).toBe(429);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toEqual({
      code: 'E_RATE_LIMITED',
      message: 'Too many requests',
      scope,
      retryAfterMs,
    });
    expect(response.headers['retry-after']).toBe(String(Math.ceil(retryAfterMs / 1000)));
    expect(response.headers['ratelimit-limit']).toBe(String(limit));
    expect(response.headers['ratelimit-remaining']).toBe('0');
    expect(response.headers['ratelimit-reset']).toBe(String(Math.ceil(retryAfterMs / 1000)));
  };

  beforeAll(async () => {
    const database = await createMigratedTestDatabase();
    drop = database.drop;
    t = await bootLimitedApp({
      databaseUrl: database.url,
      env: { ...LIMITS, REDIS_URL: redisUrl, RATE_LIMIT_REDIS_PREFIX: uniquePrefix('budgets') },
    });
  });

  afterAll(async () => {
    await t.close();
    await drop();
  });

  describe('per IP', () => {
    it('charges every request, unknown paths included, to `global`; remaining counts down', async () => {
      const ip = freshIp();
      for (let hit = 1; hit <= 10; hit++) {
        const response = await send('post', `/v1/nowhere/${hit}`, ip);
        expect(response.status).toBe(404);
        expect(response.headers['ratelimit-limit']).toBe('10');
        expect(response.headers['ratelimit-remaining']).toBe(String(10 - hit));
        expect(response.headers['ratelimit-reset']).toBe('60');
      }
      expectRefused(await send('post', '/v1/nowhere', ip), 'global', 10);
    });

    it('charges reads (GET, HEAD) to `query`, GET /v1/key-proof/status included', async () => {
      const ip = freshIp();
      // Anonymous reads of an unknown space are 404; gated reads without a proof are 401; the
      // key-proof status without a code is 400. All of them share the one reads budget.
      const reads: [Method, string, number][] = [
        ['get', '/v1/spaces/s/posts', 404],
        ['head', '/v1/spaces/s/posts/p', 404],
        ['get', '/v1/key-proof/status', 400],
        ['get', '/v1/feed', 401],
      ];
      for (const [index, [method, path, status]] of reads.entries()) {
        const response = await send(method, path, ip);
        expect(response.status).toBe(status);
        expect(response.headers['ratelimit-limit']).toBe('4');
        expect(response.headers['ratelimit-remaining']).toBe(String(3 - index));
      }
      expectRefused(await send('get', '/v1/key-proof/status', ip), 'query', 4);
      expectRefused(await send('get', '/v1/spaces/s/posts/p/comments?sort=top', ip), 'query', 4);
    });

    it('charges PUT and DELETE on …/upvote to `action`', async () => {
      const ip = freshIp();
      for (let hit = 1; hit <= 5; hit++) {
        const method = hit % 2 ? 'put' : 'delete';
        const response = await send(method, `/v1/spaces/s/comments/c${hit}/upvote`, ip);
        expect(response.status).toBe(401);
        expect(response.headers['ratelimit-remaining']).toBe(String(5 - hit));
      }
      expectRefused(await send('delete', '/v1/spaces/s/posts/p/upvote', ip), 'action', 5);
    });

    it('charges posts, comments, media mints and POST /users to `create`', async () => {
      const ip = freshIp();
      const writes: [Method, string][] = [
        ['post', '/v1/spaces/s/posts/p/comments'],
        ['patch', '/v1/spaces/s/comments/c'],
        ['delete', '/v1/spaces/s/posts/p'],
      ];
      for (const [method, path] of writes) expect((await send(method, path, ip)).status).toBe(401);
      expectRefused(await send('post', '/users', ip), 'create', 3);
      expectRefused(await send('post', '/media', ip), 'create', 3);
      expectRefused(await send('post', '/v1/spaces/s/media', ip), 'create', 3);
    });

    it('charges relay ingest and POST /spaces to `create` as well (0031-relay-ingest-and-post-spaces-are-create)', async () => {
      const ip = freshIp();
      for (const path of ['/relay/proof/v1/operations', '/spaces', '/relay/proof/v1/operations/']) {
        expect((await send('post', path, ip)).status).not.toBe(429);
      }
      expectRefused(await send('post', '/spaces', ip), 'create', 3);
      expectRefused(await send('post', '/relay/proof/v1/operations', ip), 'create', 3);
      // Reads of the relay stay `query`.
      expect((await send('get', '/relay/proof/v1/operations/x', ip)).status).not.toBe(429);
    });

    it('charges POST /v1/key-proof/present to `sensitive`', async () => {
      const ip = freshIp();
      for (let hit = 1; hit <= 2; hit++) {
        expect((await send('post', '/v1/key-proof/present', ip)).status).toBe(400);
      }
      expectRefused(await send('post', '/v1/key-proof/present', ip), 'sensitive', 2);
    });

    it('charges DELETE /profile and POST /profile/restore to the all-requests budget only, not `sensitive`', async () => {
      // design.md §6 names no class for them (docs/decisions/0194-erasure-audit-lines-and-rate-limits.md).
      const ip = freshIp();
      for (let hit = 1; hit <= 3; hit++) {
        for (const [method, path] of [
          ['delete', '/profile'],
          ['post', '/profile/restore'],
        ] as const) {
          const answer = await send(method, path, ip);
          expect(answer.status).toBe(401);
          expect(answer.headers['ratelimit-limit']).toBe('10');
        }
      }
      // The IP's key-proof budget is untouched.
      expect((await send('post', '/v1/key-proof/present', ip)).status).toBe(400);
    });

    it('keeps budgets per IP, and ignores spoofed further X-Forwarded-For hops', async () => {
      const ip = freshIp();
      for (let hit = 1; hit <= 2; hit++) await send('post', '/v1/key-proof/present', ip);
      expectRefused(await send('post', '/v1/key-proof/present', ip), 'sensitive', 2);
      const spoofed = await request(t.http)
        .post('/v1/key-proof/present')
        .set('X-Forwarded-For', `${ip}, ${freshIp()}, 10.0.0.7`);
      expect(spoofed.status).toBe(429);
      expect((await send('post', '/v1/key-proof/present', freshIp())).status).toBe(400);
    });

    it('classifies by the path the router routes by (fragment, absolute-form, backslashes)', async () => {
      const server = t.app.getHttpServer();
      if (!server.listening) await t.app.listen(0, '127.0.0.1');
      const { port } = server.address() as { port: number };
      const ip = freshIp();
      /** Sends a request target exactly as written (supertest would normalize it). */
      const raw = (target: string) =>
        new Promise<{ status: number; text: string }>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1');
          let text = '';
          socket.on('data', (chunk) => (text += chunk.toString()));
          socket.on('end', () => resolve({ status: Number(text.split(' ')[1]), text }));
          socket.on('error', reject);
          socket.write(
            `POST ${target} HTTP/1.1\r\nHost: api.plat.test\r\nX-Forwarded-For: ${ip}\r\n` +
              'Content-Length: 0\r\nConnection: close\r\n\r\n',
          );
        });
      // Each reaches the posts route (401: no proof), so each must be charged to `create`.
      for (const target of [
        '/v1/spaces/s/posts#x',
        'http://api.plat.test/v1/spaces/s/posts',
        '/v1\\spaces\\s\\posts#',
      ]) {
        const response = await raw(target);
        expect(response.status).toBe(401);
      }
      const refused = await raw('/V1/Spaces/s/Posts/');
      expect(refused.status).toBe(429);
      expect(refused.text).toContain('"scope":"create"');
    });

    it('honours the reset: a window reopens when it has passed (injected clock)', async () => {
      const ip = freshIp();
      for (let hit = 1; hit <= 4; hit++) await send('get', '/v1/spaces', ip);
      t.clock.advance(20_500);
      expectRefused(await send('get', '/v1/spaces', ip), 'query', 4, 39_500);
      t.clock.advance(39_499);
      expectRefused(await send('get', '/v1/spaces', ip), 'query', 4, 1);
      t.clock.advance(1);
      const reopened = await send('get', '/v1/spaces', ip);
      expect(reopened.status).toBe(200); // the directory listing, answered again
      expect(reopened.headers['ratelimit-remaining']).toBe('3');
      expect(reopened.headers['ratelimit-reset']).toBe('60');
    });

    it('shows the budget nearest to running out', async () => {
      const ip = freshIp();
      const first = await send('get', '/v1/spaces', ip);
      expect([first.headers['ratelimit-limit'], first.headers['ratelimit-remaining']]).toEqual(['4', '3']);
      for (let hit = 1; hit <= 7; hit++) await send('post', '/v1/nowhere', ip);
      const read = await send('get', '/v1/spaces', ip);
      // reads: 2 of 4 used (2 left); all requests: 9 of 10 used (1 left).
      expect([read.headers['ratelimit-limit'], read.headers['ratelimit-remaining']]).toEqual(['10', '1']);
    });

    it('answers the OpenAPI and llms.txt artifacts from the reads budget, refusing in plain text', async () => {
      const ip = freshIp();
      for (const path of ['/openapi.json', '/v1/openapi.yaml', '/llms.txt', '/v1/llms.txt']) {
        const response = await send('get', path, ip);
        expect(response.status).toBe(200);
        expect(response.headers['ratelimit-limit']).toBe('4');
      }
      for (const path of ['/v1/openapi.json', '/openapi.yaml', '/llms.txt']) {
        const response = await send('get', path, ip);
        expect(response.status).toBe(429);
        expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
        expect(response.headers['cache-control']).toBe('no-store');
        expect(response.headers['retry-after']).toBe('60');
        expect(response.text).toBe('Too many requests\n');
      }
    });

    it('never charges health probes', async () => {
      const ip = freshIp();
      for (let hit = 1; hit <= 12; hit++) {
        const response = await send('get', '/health/live', ip);
        expect(response.status).toBe(200);
        expect(response.headers['ratelimit-limit']).toBeUndefined();
      }
      const after = await send('get', '/nope', ip);
      expect([after.headers['ratelimit-limit'], after.headers['ratelimit-remaining']]).toEqual(['4', '3']);
    });
  });

  describe('pop-capture', () => {
    it('charges proofs that fail verification, before verifying them', async () => {
      const ip = freshIp();
      for (let hit = 1; hit <= 6; hit++) {
        const response = await send('post', '/v1/__rate-limit/gated', ip, 'PLAT not-a-valid-proof');
        expect(response.status).toBe(401);
      }
      for (const authorization of ['PLAT not-a-valid-proof', proofFor(freshGrant())]) {
        const refused = await send('post', '/v1/__rate-limit/gated', ip, authorization);
        expect(refused.status).toBe(429);
        expect(refused.body).toEqual({
          code: 'E_RATE_LIMITED',
          message: 'Too many requests',
          scope: 'pop-capture',
          retryAfterMs: 60000,
        });
        expect(refused.headers['retry-after']).toBe('60');
        expect(refused.headers['ratelimit-limit']).toBeUndefined();
        expect(refused.headers['ratelimit-remaining']).toBeUndefined();
        expect(refused.headers['ratelimit-reset']).toBeUndefined();
      }
    });

    it('charges optional-auth routes only when an Authorization header is presented', async () => {
      const ip = freshIp();
      for (let hit = 1; hit <= 3; hit++)
        expect((await send('get', '/v1/__rate-limit/optional', ip)).status).toBe(200);
      for (let hit = 1; hit <= 6; hit++) {
        const response = await send('post', '/v1/__rate-limit/gated', ip, 'PLAT bad');
        expect(response.status).toBe(401);
      }
      expect((await send('get', '/v1/__rate-limit/optional', ip, 'PLAT bad')).status).toBe(429);
    });

    it('is not charged where nothing verifies a proof (anonymous and unknown routes)', async () => {
      const ip = freshIp();
      for (let hit = 1; hit <= 3; hit++) {
        expect((await send('get', '/v1/__rate-limit/anonymous', ip, 'PLAT whatever')).status).toBe(200);
      }
      for (let hit = 1; hit <= 4; hit++) {
        expect((await send('post', '/v1/nowhere', ip, 'PLAT whatever')).status).toBe(404);
      }
      expect((await send('post', '/v1/__rate-limit/gated', ip, 'PLAT whatever')).status).toBe(401);
    });
  });

  describe('per grant', () => {
    it('follows one grant across client IPs (`authenticated`); each grant has its own', async () => {
      const [first, second] = [freshIp(), freshIp()];
      const grant = freshGrant();
      for (let hit = 1; hit <= 7; hit++) {
        const response = await send(
          'post',
          '/v1/__rate-limit/gated',
          hit % 2 ? first : second,
          proofFor(grant),
        );
        expect(response.status).toBe(201);
        expect(response.body).toEqual({ grant });
      }
      expectRefused(
        await send('post', '/v1/__rate-limit/gated', second, proofFor(grant)),
        'authenticated',
        7,
      );
      expect((await send('post', '/v1/__rate-limit/gated', second, proofFor(freshGrant()))).status).toBe(201);
    });

    it('charges a grant its reads (`query`)', async () => {
      const [first, second] = [freshIp(), freshIp()];
      const grant = freshGrant();
      for (let hit = 1; hit <= 5; hit++) {
        expect(
          (await send('get', '/v1/__rate-limit/gated', hit % 2 ? first : second, proofFor(grant))).status,
        ).toBe(200);
      }
      expectRefused(await send('get', '/v1/__rate-limit/gated', second, proofFor(grant)), 'query', 5);
    });

    it('charges a grant its upvotes (`action`)', async () => {
      const [first, second] = [freshIp(), freshIp()];
      const grant = freshGrant();
      for (let hit = 1; hit <= 3; hit++) {
        const response = await send(
          'put',
          '/v1/spaces/s/posts/p/upvote',
          hit % 2 ? first : second,
          proofFor(grant),
        );
        expect(response.status).not.toBe(429);
      }
      expectRefused(await send('put', '/v1/spaces/s/posts/p/upvote', second, proofFor(grant)), 'action', 3);
    });

    it('charges a grant its posts and comments (`create`)', async () => {
      const [first, second] = [freshIp(), freshIp()];
      const grant = freshGrant();
      for (let hit = 1; hit <= 2; hit++) {
        const response = await send('post', '/v1/spaces/s/posts', hit % 2 ? first : second, proofFor(grant));
        expect(response.status).not.toBe(429);
      }
      expectRefused(await send('post', '/v1/spaces/s/posts', first, proofFor(grant)), 'create', 2);
    });

    it('is not charged when the proof does not verify', async () => {
      const ip = freshIp();
      const grant = freshGrant();
      // The stand-in refuses a proof with an appended "!": same grant text, not verified.
      for (let hit = 1; hit <= 4; hit++) {
        expect((await send('post', '/v1/__rate-limit/gated', ip, `${proofFor(grant)}!`)).status).toBe(401);
      }
      const verified = await send('post', '/v1/__rate-limit/gated', freshIp(), proofFor(grant));
      expect(verified.status).toBe(201);
      expect(verified.headers['ratelimit-limit']).toBe('7');
      expect(verified.headers['ratelimit-remaining']).toBe('6');
    });
  });
});
