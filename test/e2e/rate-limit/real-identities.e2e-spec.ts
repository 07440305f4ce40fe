import request from 'supertest';
import { Clock } from '../../../src/common/clock/clock';
import { issueCredential } from '../../../src/protocol/client';
import { Actor, SignOptions } from '../../support/actors';
import { bootApp, TestApp } from '../../support/app';

/** Time that stands still: every window of this file stays open, whatever the machine's load. */
class FrozenClock extends Clock {
  private readonly instant = new Date(Date.now());

  override now(): Date {
    return new Date(this.instant.getTime());
  }
}

/**
 * Per-grant and `pop-capture` budgets with real identities, real request proofs and real routes
 * (the budgets suite uses a stand-in authenticator). Per-IP budgets stay generous (bootApp), so
 * every refusal below is the grant's or `pop-capture`'s; each budget has its own limit, so
 * RateLimit-Limit tells which one a response describes.
 */
describe('per-grant and pop-capture budgets with real identities (e2e)', () => {
  const GRANT_ALL = 9;
  const GRANT_READS = 3;
  const GRANT_POSTS = 2;
  const POP_CAPTURE = 4;
  const clock = new FrozenClock();
  const sign = () => clock.now();
  let t: TestApp;
  let ipCounter = 0;
  /** A client address of its own (TRUST_PROXY is on: the first X-Forwarded-For hop counts). */
  const freshIp = () => `203.0.113.${++ipCounter}`;

  beforeAll(async () => {
    t = await bootApp({
      env: {
        TRUST_PROXY: 'true',
        RATE_LIMIT_GRANT_ALL: String(GRANT_ALL),
        RATE_LIMIT_GRANT_READS: String(GRANT_READS),
        RATE_LIMIT_GRANT_POSTS: String(GRANT_POSTS),
        RATE_LIMIT_POP_CAPTURE: String(POP_CAPTURE),
      },
      override: (builder) => builder.overrideProvider(Clock).useValue(clock),
    });
  });

  afterAll(async () => {
    await t.close();
  });

  /** An actor's request from `ip`, signed as an independent client would sign it. */
  const from = (
    ip: string,
    actor: Actor,
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    options: SignOptions & { body?: object } = {},
  ) => {
    const agent = request(t.http);
    const call =
      method === 'GET'
        ? agent.get(path)
        : (method === 'POST' ? agent.post(path) : agent.patch(path)).send(options.body ?? {});
    return call.set('X-Forwarded-For', ip).set(actor.headers(method, path, options));
  };

  /** A person with an account; every request of this file comes from an address of its own. */
  const person = async (handle: string) => {
    const actor = await Actor.create(t, { clock: sign });
    expect((await from(freshIp(), actor, 'POST', '/users', { body: { handle } })).status).toBe(201);
    return actor;
  };

  const expectRefused = (response: request.Response, scope: string, limit: number) => {
    expect(response.status).toBe(429);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toEqual({
      code: 'E_RATE_LIMITED',
      message: 'Too many requests',
      scope,
      retryAfterMs: 60_000,
    });
    expect(response.headers['retry-after']).toBe('60');
    expect(response.headers['ratelimit-limit']).toBe(String(limit));
    expect(response.headers['ratelimit-remaining']).toBe('0');
    expect(response.headers['ratelimit-reset']).toBe('60');
  };

  it('trips a bare identity proof’s reads at limit + 1 across IPs (`query`), only for that grant', async () => {
    const alice = await person('rl-alice');
    const [first, second] = [freshIp(), freshIp()];
    for (let hit = 1; hit <= GRANT_READS; hit++) {
      const response = await from(hit % 2 ? first : second, alice, 'GET', '/v1/profile');
      expect(response.status).toBe(200);
      expect(response.body.handle).toBe('rl-alice');
      expect(response.headers['ratelimit-limit']).toBe(String(GRANT_READS));
      expect(response.headers['ratelimit-remaining']).toBe(String(GRANT_READS - hit));
    }
    expectRefused(await from(freshIp(), alice, 'GET', '/v1/profile'), 'query', GRANT_READS);

    // Another person from the same address reads on; the grant's other classes stay open.
    const bob = await person('rl-bob');
    expect((await from(second, bob, 'GET', '/v1/profile')).status).toBe(200);
    const write = await from(second, alice, 'PATCH', '/profile', { body: { bio: 'still writing' } });
    expect(write.status).toBe(200);
  });

  it('keys a credential’s budgets by its CID: apart from the app’s and the person’s own', async () => {
    const carol = await person('rl-carol');
    const app = await Actor.create(t, { clock: sign });
    const credential = (expiresInSeconds: number) =>
      issueCredential(carol.identity, {
        audience: app.did,
        host: t.config.publicHost,
        scopes: ['read:profile'],
        expiresInSeconds,
        clock: sign,
      }).token;
    const [one, two] = [credential(3600), credential(7200)];
    // Each request from an address of its own: the grant, not the address, runs out.
    for (let hit = 1; hit <= GRANT_READS; hit++) {
      const response = await from(freshIp(), app, 'GET', '/v1/profile', { credential: one });
      expect(response.status).toBe(200);
      expect(response.body.handle).toBe('rl-carol');
      expect(response.headers['ratelimit-remaining']).toBe(String(GRANT_READS - hit));
    }
    expectRefused(
      await from(freshIp(), app, 'GET', '/v1/profile', { credential: one }),
      'query',
      GRANT_READS,
    );

    const other = await from(freshIp(), app, 'GET', '/v1/profile', { credential: two });
    expect(other.status).toBe(200);
    expect(other.headers['ratelimit-remaining']).toBe(String(GRANT_READS - 1));
    const own = await from(freshIp(), carol, 'GET', '/v1/profile');
    expect(own.status).toBe(200);
    expect(own.headers['ratelimit-remaining']).toBe(String(GRANT_READS - 1));
  });

  it('charges POST /users to the grant’s `create` budget across IPs', async () => {
    const dave = await Actor.create(t, { clock: sign });
    const signUp = (ip: string, handle: string) => from(ip, dave, 'POST', '/users', { body: { handle } });
    const created = await signUp(freshIp(), 'rl-dave');
    expect(created.status).toBe(201);
    expect(created.headers['ratelimit-limit']).toBe(String(GRANT_POSTS));
    expect(created.headers['ratelimit-remaining']).toBe(String(GRANT_POSTS - 1));
    const again = await signUp(freshIp(), 'rl-dave-again');
    expect(again.status).not.toBe(429);
    expect(again.headers['ratelimit-remaining']).toBe('0');
    expectRefused(await signUp(freshIp(), 'rl-dave-third'), 'create', GRANT_POSTS);
  });

  it('charges the grant of every verified proof, also when the route then refuses the request', async () => {
    const frank = await person('rl-frank');
    // A bare proof where only a credential is taken: the proof verifies, the route answers 401.
    for (let hit = 1; hit <= GRANT_READS; hit++) {
      const response = await from(freshIp(), frank, 'GET', '/v1/credential');
      expect(response.status).toBe(401);
      expect(response.headers['ratelimit-remaining']).toBe(String(GRANT_READS - hit));
    }
    expectRefused(await from(freshIp(), frank, 'GET', '/v1/profile'), 'query', GRANT_READS);

    // A credential without the route's scope is refused (403) and charged under its own CID.
    const gina = await person('rl-gina');
    const app = await Actor.create(t, { clock: sign });
    const token = issueCredential(gina.identity, {
      audience: app.did,
      host: t.config.publicHost,
      scopes: ['read:memberships'],
      expiresInSeconds: 3600,
      clock: sign,
    }).token;
    for (let hit = 1; hit <= GRANT_READS; hit++) {
      const response = await from(freshIp(), app, 'GET', '/v1/profile', { credential: token });
      expect(response.status).toBe(403);
      expect(response.headers['ratelimit-remaining']).toBe(String(GRANT_READS - hit));
    }
    expectRefused(
      await from(freshIp(), app, 'GET', '/v1/profile', { credential: token }),
      'query',
      GRANT_READS,
    );
    // Neither the app's own grant nor the person's was charged for it.
    const own = await from(freshIp(), gina, 'GET', '/v1/profile');
    expect(own.status).toBe(200);
    expect(own.headers['ratelimit-remaining']).toBe(String(GRANT_READS - 1));
  });

  it('charges `pop-capture` per IP for proofs that fail verification, and never their grant', async () => {
    const erin = await person('rl-erin');
    const ip = freshIp();
    const failing: [string, SignOptions | string][] = [
      ['a proof bound to another target', { signedTarget: '/v1/profile?x=1' }],
      ['a proof bound to another method', { signedMethod: 'POST' }],
      ['a proof issued ten minutes ago', { clock: () => new Date(clock.now().getTime() - 600_000) }],
      ['no proof at all', 'PLAT not-a-request-proof'],
    ];
    expect(failing).toHaveLength(POP_CAPTURE);
    for (const [, proof] of failing) {
      const call = request(t.http).get('/v1/profile').set('X-Forwarded-For', ip);
      const response = await (typeof proof === 'string'
        ? call.set('Authorization', proof)
        : call.set(erin.headers('GET', '/v1/profile', proof)));
      expect(response.status).toBe(401);
    }

    // The next proof from that address is refused before it is verified, valid or not.
    const refused = await from(ip, erin, 'GET', '/v1/profile');
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(refused.body).toEqual({
      code: 'E_RATE_LIMITED',
      message: 'Too many requests',
      scope: 'pop-capture',
      retryAfterMs: 60_000,
    });
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.headers['ratelimit-limit']).toBeUndefined();
    expect(refused.headers['ratelimit-remaining']).toBeUndefined();
    expect(refused.headers['ratelimit-reset']).toBeUndefined();

    // Only proofs are refused there: without an Authorization header the address is served.
    expect((await request(t.http).get('/v1/spaces').set('X-Forwarded-For', ip)).status).toBe(200);

    // Erin's grant paid for none of the above: from elsewhere her first read leaves limit - 1.
    const elsewhere = await from(freshIp(), erin, 'GET', '/v1/profile');
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers['ratelimit-limit']).toBe(String(GRANT_READS));
    expect(elsewhere.headers['ratelimit-remaining']).toBe(String(GRANT_READS - 1));
  });
});
