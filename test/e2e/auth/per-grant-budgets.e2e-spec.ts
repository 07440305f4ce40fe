import { Clock } from '../../../src/common/clock/clock';
import { Actor } from '../../support/actors';
import { ShiftedClock } from '../../support/clock';
import { bootApp, TestApp } from '../../support/app';

/** Per-grant budgets with real request proofs: charged after verification, before the jti is spent. */
describe('per-grant budgets with real proofs (e2e)', () => {
  let t: TestApp;
  const clock = new ShiftedClock();

  beforeAll(async () => {
    t = await bootApp({
      env: { RATE_LIMIT_GRANT_ALL: '3', RATE_LIMIT_GRANT_READS: '1000' },
      override: (builder) => builder.overrideProvider(Clock).useValue(clock),
    });
  });

  afterAll(async () => {
    await t.close();
  });

  it('refuses the grant at limit + 1 and leaves the refused write’s jti unspent', async () => {
    const alice = await Actor.create(t);
    expect((await alice.signUp('grant-alice')).status).toBe(201);
    expect((await alice.get('/v1/profile')).status).toBe(200);
    expect((await alice.patch('/profile', { bio: 'one' })).status).toBe(200);

    const jti = 'per-grant-jti-0123456789';
    const refused = await alice.patch('/profile', { bio: 'two' }, { jti });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'E_RATE_LIMITED', scope: 'authenticated' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    clock.offsetMs = 61_000;
    const retried = await alice.patch('/profile', { bio: 'two' }, { jti });
    expect(retried.status).toBe(200);
    expect(retried.body.bio).toBe('two');
  });

  it('keeps grants apart: another person still has a full budget', async () => {
    const bob = await Actor.create(t);
    expect((await bob.signUp('grant-bob')).status).toBe(201);
    expect((await bob.get('/v1/profile')).headers['ratelimit-remaining']).toBeDefined();
  });
});
