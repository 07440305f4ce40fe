import Redis from 'ioredis';
import request from 'supertest';
import { Actor } from '../../support/actors';
import { bootApp, TestApp } from '../../support/app';

/** The real Redis of this machine and CI. */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** A database index of that Redis for this file alone, so emptying it disturbs no other suite. */
const REDIS_DB = 12;

/**
 * A spent jti stays spent when Redis loses its data (a restart of a Redis that
 * keeps nothing on disk), so a captured write cannot be replayed after one
 * (docs/decisions/0027-replay-protection-spent-jtis-in-postgresql.md).
 */
describe('replay protection across a Redis restart (e2e)', () => {
  let t: TestApp;
  let redis: Redis;

  beforeAll(async () => {
    const url = new URL(REDIS_URL);
    url.pathname = `/${REDIS_DB}`;
    t = await bootApp({ env: { REDIS_URL: url.toString() } });
    redis = new Redis(url.toString());
  });

  afterAll(async () => {
    redis?.disconnect();
    await t?.close();
  });

  it('refuses the same signed write after Redis lost every key', async () => {
    const alice = await Actor.create(t);
    expect((await alice.signUp('restart-alice')).status).toBe(201);
    const signed = alice.headers('PATCH', '/profile', { jti: 'restart-jti-0123456789' });
    const first = await request(t.http).patch('/profile').set(signed).send({ bio: 'first' });
    expect(first.status).toBe(200);

    // The app keeps its state in this database (the rate-limit counters at least); all of it goes.
    expect(await redis.dbsize()).toBeGreaterThan(0);
    await redis.flushdb();
    expect(await redis.dbsize()).toBe(0);

    const replay = await request(t.http).patch('/profile').set(signed).send({ bio: 'first' });
    expect(replay.status).toBe(409);
    expect(replay.body).toEqual({ code: 'E_CONFLICT', message: 'Replayed request' });
  });

  it('still gives a refused write its jti back', async () => {
    const bob = await Actor.create(t);
    expect((await bob.signUp('restart-bob')).status).toBe(201);
    const signed = bob.headers('PATCH', '/profile', { jti: 'restart-jti-refused-0123' });
    expect((await request(t.http).patch('/profile').set(signed).send({ bio: 7 })).status).toBe(400);
    expect((await request(t.http).patch('/profile').set(signed).send({ bio: 'ok' })).status).toBe(200);
    expect((await request(t.http).patch('/profile').set(signed).send({ bio: 'ok' })).status).toBe(409);
  });
});
