import { Actor } from '../../support/actors';
import { closedPort } from '../../support/network';
import { bootApp, TestApp } from '../../support/app';

/** design.md §3: when the replay store cannot answer, a write is 503, never a pass. */
describe('replay store outage (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Rate limiting off so the outage reaches the replay store, not the limiter first.
    t = await bootApp({
      env: { REDIS_URL: `redis://127.0.0.1:${await closedPort()}`, RATE_LIMIT_DISABLED: 'true' },
    });
  });

  afterAll(async () => {
    await t.close();
  });

  it('answers a write with 503 E_SERVICE_UNAVAILABLE and no Retry-After; reads still verify', async () => {
    const alice = await Actor.create(t);
    const write = await alice.signUp('outage-alice');
    expect(write.status).toBe(503);
    expect(write.body).toEqual({
      code: 'E_SERVICE_UNAVAILABLE',
      message: 'Replay protection is unavailable',
    });
    expect(write.headers['retry-after']).toBeUndefined();
    const read = await alice.get('/v1/profile');
    expect(read.status).toBe(404);
  });
});
