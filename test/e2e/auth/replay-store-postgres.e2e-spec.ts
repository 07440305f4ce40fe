import { DataSource } from 'typeorm';
import { Clock } from '../../../src/common/clock/clock';
import { Actor } from '../../support/actors';
import { bootApp, TestApp } from '../../support/app';
import { ShiftedClock } from '../../support/clock';

/** design.md §3 replay rules on the store, the database (with or without REDIS_URL; here without). */
describe('replay store on PostgreSQL (e2e)', () => {
  const clock = new ShiftedClock();
  let t: TestApp;
  let alice: Actor;

  beforeAll(async () => {
    t = await bootApp({
      env: { REDIS_URL: undefined as unknown as string },
      override: (builder) => builder.overrideProvider(Clock).useValue(clock),
    });
    expect(t.config.REDIS_URL).toBeUndefined();
    alice = await Actor.create(t, { clock: () => clock.now() });
    expect((await alice.signUp('pg-replay')).status).toBe(201);
  });

  afterAll(async () => {
    await t.close();
  });

  it('answers a replayed write with 409 and a refused write leaves its jti unspent', async () => {
    const jti = 'pg-replay-jti-0123456789';
    expect((await alice.patch('/profile', { bio: 'x' }, { jti, signedTarget: '/other' })).status).toBe(401);
    expect((await alice.patch('/profile', { bio: 'first' }, { jti })).status).toBe(200);
    const replay = await alice.patch('/profile', { bio: 'second' }, { jti });
    expect(replay.status).toBe(409);
    expect(replay.body).toEqual({ code: 'E_CONFLICT', message: 'Replayed request' });
    expect((await alice.get('/v1/profile')).body.bio).toBe('first');
  });

  it('the pair is per signer: another identity may use the same jti', async () => {
    const bob = await Actor.create(t, { clock: () => clock.now() });
    const jti = 'shared-jti-abcdefghijkl';
    expect((await alice.patch('/profile', { bio: 'a' }, { jti })).status).toBe(200);
    expect((await bob.signUp('pg-replay-bob')).status).toBe(201);
    expect((await bob.patch('/profile', { bio: 'b' }, { jti })).status).toBe(200);
  });

  it('remembers the pair for 360 s; after that the pair may be used again', async () => {
    const jti = 'expiring-jti-0123456789';
    expect((await alice.patch('/profile', { bio: 'one' }, { jti })).status).toBe(200);
    clock.offsetMs += 359_000;
    expect((await alice.patch('/profile', { bio: 'two' }, { jti })).status).toBe(409);
    clock.offsetMs += 2_000;
    expect((await alice.patch('/profile', { bio: 'three' }, { jti })).status).toBe(200);
  });

  it('a store that cannot answer is 503 E_SERVICE_UNAVAILABLE, and the write is not applied', async () => {
    const dataSource = t.app.get(DataSource);
    await dataSource.query('ALTER TABLE replay_jtis RENAME TO replay_jtis_away');
    try {
      const response = await alice.patch('/profile', { bio: 'during outage' });
      expect(response.status).toBe(503);
      expect(response.body.code).toBe('E_SERVICE_UNAVAILABLE');
      expect(response.headers['retry-after']).toBeUndefined();
    } finally {
      await dataSource.query('ALTER TABLE replay_jtis_away RENAME TO replay_jtis');
    }
    expect((await alice.get('/v1/profile')).body.bio).not.toBe('during outage');
  });
});
