import request, { Response } from 'supertest';
import { Actor } from '../../support/actors';
import { refuseWrites } from '../../support/faults';
import {
  admit,
  bootSpaces,
  expectStatus,
  makePublic,
  newSpace,
  newTopic,
  person,
  SpacesTestApp,
} from '../posts/support';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A write carrying `Idempotency-Key` can be retried (with a new request proof)
 * and gets the first answer, byte for byte; the same key with another request is 409. Keys belong
 * to the authenticated caller, and a write that failed without committing runs again
 * (docs/decisions/0063-idempotency-key.md).
 */
describe('Idempotency-Key on writes (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let member: Actor;
  let other: Actor;
  let app: Actor;
  let space: { id: string; did: string };
  let topic: string;
  let postsPath: string;

  /** A signed POST (a fresh proof and jti every time) with an optional Idempotency-Key. */
  const keyedPost = (actor: Actor, path: string, body: object, key?: string, credential?: string) => {
    const call = request(t.http)
      .post(path)
      .set(actor.headers('POST', path, { credential }));
    if (key !== undefined) call.set('Idempotency-Key', key);
    return call.send(body);
  };
  const postBodies = async (): Promise<string[]> => {
    const listing = await member.get(`${postsPath}?limit=100`);
    expectStatus(listing, 200);
    return (listing.body as { items: { excerpt: string }[] }).items.map((item) => item.excerpt);
  };
  const storedKeys = async (key: string): Promise<number> =>
    Number(
      (await t.dataSource.query('SELECT count(*)::int AS n FROM idempotency_keys WHERE key = $1', [key]))[0]
        .n,
    );
  const expectSameAnswer = (replay: Response, first: Response) => {
    expect(replay.status).toBe(first.status);
    expect(replay.text).toBe(first.text);
    expect(replay.headers['content-type']).toBe(first.headers['content-type']);
    expect(replay.headers['content-length']).toBe(first.headers['content-length']);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
  };

  beforeAll(async () => {
    t = await bootSpaces();
    [owner, member, other, app] = await Promise.all([person(t), person(t), person(t), person(t)]);
    space = await newSpace(owner, 'Retries');
    await makePublic(owner, space.id);
    await admit(owner, space.id, member);
    await admit(owner, space.id, other);
    topic = await newTopic(owner, space.id, 'General', 'public');
    postsPath = `/v1/spaces/${space.id}/posts`;
  });

  afterAll(() => t?.close());

  it('a retry with the same key and body gets the first answer, byte for byte, and writes once', async () => {
    const body = { topic, body: 'written once' };
    const first = await keyedPost(member, postsPath, body, 'create-once-1');
    expectStatus(first, 201);
    const retry = await keyedPost(member, postsPath, body, 'create-once-1');
    expectSameAnswer(retry, first);
    expect((await postBodies()).filter((text) => text === 'written once')).toHaveLength(1);
  });

  it('the same key with another body is 409 and writes nothing', async () => {
    expectStatus(await keyedPost(member, postsPath, { topic, body: 'first body' }, 'reused-key'), 201);
    const before = await postBodies();
    const clash = await keyedPost(member, postsPath, { topic, body: 'second body' }, 'reused-key');
    expectStatus(clash, 409);
    expect(clash.text).toBe(
      '{"code":"E_CONFLICT","message":"This Idempotency-Key was used with another request"}',
    );
    expect(clash.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(clash.headers['cache-control']).toBe('no-store');
    expect(clash.headers['idempotent-replayed']).toBeUndefined();
    expect(await postBodies()).toEqual(before);
  });

  it('the same key on another route is 409', async () => {
    expectStatus(await keyedPost(member, postsPath, { topic, body: 'route one' }, 'route-key'), 201);
    const elsewhere = await keyedPost(member, `/spaces/${space.id}/my-invite`, {}, 'route-key');
    expectStatus(elsewhere, 409);
    expect(elsewhere.body).toEqual({
      code: 'E_CONFLICT',
      message: 'This Idempotency-Key was used with another request',
    });
  });

  it("keys are the caller's own: another person, or an app acting for the same person, is independent", async () => {
    const body = { topic, body: 'shared key' };
    const mine = await keyedPost(member, postsPath, body, 'shared-key');
    const theirs = await keyedPost(other, postsPath, body, 'shared-key');
    const credential = member.grant(app, ['write:posts', 'read:posts']);
    const viaApp = await keyedPost(app, postsPath, body, 'shared-key', credential);
    for (const response of [mine, theirs, viaApp]) {
      expectStatus(response, 201);
      expect(response.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(new Set([mine.body.id, theirs.body.id, viaApp.body.id]).size).toBe(3);
    expect(theirs.body.author.did).toBe(other.did);
    expect(viaApp.body.author.did).toBe(member.did);
    // The app's own retry gets its own answer back.
    const appRetry = await keyedPost(
      app,
      postsPath,
      body,
      'shared-key',
      member.grant(app, ['write:posts', 'read:posts']),
    );
    expectSameAnswer(appRetry, viaApp);
  });

  it('a retry is authenticated like any request: without a valid proof it is 401, not the answer', async () => {
    const body = { topic, body: 'needs a proof' };
    expectStatus(await keyedPost(member, postsPath, body, 'proof-key'), 201);
    const anonymous = await request(t.http).post(postsPath).set('Idempotency-Key', 'proof-key').send(body);
    expectStatus(anonymous, 401);
    expect(anonymous.text).not.toContain('needs a proof');
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['with a space', 'two words'],
    ['not ASCII', 'clé'],
  ])('a key %s is 400 with details naming the header, and writes nothing', async (_name, key) => {
    const before = await postBodies();
    const response = await keyedPost(member, postsPath, { topic, body: 'bad key' }, key);
    expectStatus(response, 400);
    expect(response.body).toEqual({
      code: 'E_INVALID_REQUEST',
      message: 'Invalid request',
      details: [
        { path: 'Idempotency-Key', message: 'Idempotency-Key must be 1 to 255 visible ASCII characters' },
      ],
    });
    expect(await postBodies()).toEqual(before);
  });

  it('a key of 255 visible ASCII characters is taken', async () => {
    const key = `${'!~'.repeat(127)}z`;
    expectStatus(await keyedPost(member, postsPath, { topic, body: 'long key' }, key), 201);
  });

  it('a DELETE retried gets its 204 again, not the 404 a second delete would give', async () => {
    const group = await owner.post(`/spaces/${space.id}/groups`, { name: 'Short-lived' });
    expectStatus(group, 201);
    const path = `/spaces/${space.id}/groups/${group.body.id}`;
    const keyedDelete = () =>
      request(t.http).delete(path).set(owner.headers('DELETE', path)).set('Idempotency-Key', 'delete-once');
    const first = await keyedDelete();
    expectStatus(first, 204);
    const retry = await keyedDelete();
    expectSameAnswer(retry, first);
    expectStatus(await owner.delete(path), 404);
  });

  it('a 4xx answer is replayed too', async () => {
    const body = { topic, body: '' };
    const first = await keyedPost(member, postsPath, body, 'invalid-once');
    expectStatus(first, 400);
    const retry = await keyedPost(member, postsPath, body, 'invalid-once');
    expectSameAnswer(retry, first);
  });

  it('a write that failed without committing gives its key back: the retry runs and succeeds', async () => {
    const body = { topic, body: 'after a fault' };
    const repair = await refuseWrites(t.dataSource, 'spaces', 'UPDATE OF last_activity_at');
    try {
      const failed = await keyedPost(member, postsPath, body, 'fault-key');
      expectStatus(failed, 500);
      expect(failed.body).toEqual({ code: 'E_INTERNAL', message: 'Internal error' });
    } finally {
      await repair();
    }
    expect(await storedKeys('fault-key')).toBe(0);
    const retry = await keyedPost(member, postsPath, body, 'fault-key');
    expectStatus(retry, 201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect((await postBodies()).filter((text) => text === 'after a fault')).toHaveLength(1);
  });

  it('a retry while the first request still runs is 409, and the first one completes', async () => {
    const body = { topic, body: 'in flight' };
    // Hold the space row so the first request waits inside its write (after its reservation).
    const holder = t.dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    try {
      await holder.query(`SELECT 1 FROM spaces WHERE did = $1 FOR UPDATE`, [space.did]);
      // `then` sends it now; it waits on the held row.
      const first = keyedPost(member, postsPath, body, 'in-flight-key').then((response) => response);
      await until(async () => (await storedKeys('in-flight-key')) === 1);
      const retry = await keyedPost(member, postsPath, body, 'in-flight-key');
      expectStatus(retry, 409);
      expect(retry.body).toEqual({
        code: 'E_CONFLICT',
        message: 'A request with this Idempotency-Key is in progress',
      });
      await holder.commitTransaction();
      expectStatus(await first, 201);
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
    const replay = await keyedPost(member, postsPath, body, 'in-flight-key');
    expectStatus(replay, 201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('a reservation older than its lease (its process died) is taken over by a retry, whose answer the key keeps', async () => {
    const body = { topic, body: 'outlived its lease' };
    const reservationOf = async (): Promise<string | undefined> =>
      (await t.dataSource.query('SELECT reservation FROM idempotency_keys WHERE key = $1', ['lease-key']))[0]
        ?.reservation;
    const holder = t.dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    let first: Promise<Response>;
    let taker: Promise<Response>;
    try {
      await holder.query(`SELECT 1 FROM spaces WHERE did = $1 FOR UPDATE`, [space.did]);
      first = keyedPost(member, postsPath, body, 'lease-key').then((response) => response);
      await until(async () => (await reservationOf()) !== undefined);
      const firstReservation = await reservationOf();
      t.clock.offsetMs += (t.config.IDEMPOTENCY_LEASE_SECONDS + 1) * 1000;
      taker = keyedPost(member, postsPath, body, 'lease-key').then((response) => response);
      await until(async () => (await reservationOf()) !== firstReservation);
      await holder.commitTransaction();
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
    const [late, taken] = await Promise.all([first!, taker!]);
    expectStatus(late, 201);
    expectStatus(taken, 201);
    // Both ran (the lease must outlast any write): the key keeps the taker's answer.
    const replay = await keyedPost(member, postsPath, body, 'lease-key');
    expectSameAnswer(replay, taken);
  });

  it('without the header, two identical writes are two posts (as before)', async () => {
    const body = { topic, body: 'twice without a key' };
    expectStatus(await keyedPost(member, postsPath, body), 201);
    expectStatus(await keyedPost(member, postsPath, body), 201);
    expect((await postBodies()).filter((text) => text === 'twice without a key')).toHaveLength(2);
  });

  it('anonymous writes ignore the header: nothing is remembered for them', async () => {
    const response = await request(t.http)
      .post('/relay/proof/v1/operations')
      .set('Idempotency-Key', 'anonymous-key')
      .send({ operations: [] });
    expect(response.headers['idempotent-replayed']).toBeUndefined();
    expect(await storedKeys('anonymous-key')).toBe(0);
  });

  it('a key can be used again once it expired (IDEMPOTENCY_TTL_SECONDS, 24 h by default); expired keys are swept', async () => {
    expectStatus(await keyedPost(member, postsPath, { topic, body: 'before expiry' }, 'expiring-key'), 201);
    t.clock.offsetMs += DAY_MS - 60_000;
    expectStatus(await keyedPost(member, postsPath, { topic, body: 'too soon' }, 'expiring-key'), 409);
    t.clock.offsetMs += 60_000;
    const reused = await keyedPost(member, postsPath, { topic, body: 'after expiry' }, 'expiring-key');
    expectStatus(reused, 201);
    expect(reused.headers['idempotent-replayed']).toBeUndefined();
    expect(await postBodies()).toContain('after expiry');
    // Expired rows are swept after a reservation, off the request path.
    await until(async () => (await storedKeys('create-once-1')) === 0);
    expect(await storedKeys('expiring-key')).toBe(1);
  });
});

/** Polls a condition the test cannot await directly (a request reaching a point on the server). */
async function until(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
