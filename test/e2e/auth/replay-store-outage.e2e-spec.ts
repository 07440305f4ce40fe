import { DataSource } from 'typeorm';
import { Actor } from '../../support/actors';
import { closedPort } from '../../support/network';
import { bootApp, TestApp } from '../../support/app';

/**
 * design.md §3: when the replay store cannot answer, a write is 503, never a pass. The store is
 * the database (docs/decisions/0027-replay-protection-spent-jtis-in-postgresql.md), so an unreachable Redis does not touch replay protection.
 */
describe('replay store outage (e2e)', () => {
  let t: TestApp;
  let alice: Actor;

  beforeAll(async () => {
    // Rate limiting off so requests reach the replay store, not the (Redis) limiter first.
    t = await bootApp({
      env: { REDIS_URL: `redis://127.0.0.1:${await closedPort()}`, RATE_LIMIT_DISABLED: 'true' },
    });
    alice = await Actor.create(t);
  });

  afterAll(async () => {
    await t.close();
  });

  it('with Redis unreachable, a write is served and its replay is still refused', async () => {
    const jti = 'outage-jti-0123456789ab';
    expect((await alice.signUp('outage-alice')).status).toBe(201);
    expect((await alice.patch('/profile', { bio: 'first' }, { jti })).status).toBe(200);
    const replay = await alice.patch('/profile', { bio: 'second' }, { jti });
    expect(replay.status).toBe(409);
    expect(replay.body).toEqual({ code: 'E_CONFLICT', message: 'Replayed request' });
  });

  it('a store that cannot answer is 503 E_SERVICE_UNAVAILABLE without Retry-After; reads still verify', async () => {
    const dataSource = t.app.get(DataSource);
    await dataSource.query('ALTER TABLE replay_jtis RENAME TO replay_jtis_away');
    try {
      const write = await alice.patch('/profile', { bio: 'during outage' });
      expect(write.status).toBe(503);
      expect(write.body).toEqual({
        code: 'E_SERVICE_UNAVAILABLE',
        message: 'Replay protection is unavailable',
      });
      expect(write.headers['retry-after']).toBeUndefined();
      const read = await alice.get('/v1/profile');
      expect(read.status).toBe(200);
      expect(read.body.bio).toBe('first');
    } finally {
      await dataSource.query('ALTER TABLE replay_jtis_away RENAME TO replay_jtis');
    }
  });
});
