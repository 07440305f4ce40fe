import request, { Response } from 'supertest';
import { Actor } from '../../support/actors';
import { admit, bootSpaces, makePublic, newSpace, person, SpacesTestApp } from '../memberships/support';
import { newPost, newTopic } from '../posts/support';
import { expectStatus } from '../spaces/support';

/** The exact 403 body (design.md §5) to a proof of an account whose erasure is pending. */
const PENDING_BODY = JSON.stringify({
  code: 'E_FORBIDDEN',
  message: 'Erasure of this account is pending; restore it (POST /profile/restore) to use it',
});

function expectPending(response: Response): void {
  if (response.status !== 403 || response.text !== PENDING_BODY) {
    throw new Error(`expected the erasure-pending 403, got ${response.status} ${response.text}`);
  }
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
}

/**
 * While erasure is pending a person's own proofs are accepted only on the routes leaving needs
 * (docs/decisions/0198-a-pending-erasure-accepts-proofs-only-to-leave.md): GET /v1/profile,
 * DELETE /profile, POST /profile/restore (and the personal exports). Every other proof-bearing
 * request is 403 and writes nothing; a restore gives everything back; others are unaffected.
 */
describe('proofs of an account whose erasure is pending (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let alice: Actor;
  let bob: Actor;
  let spaceId: string;
  let openSpaceId: string;
  let topic: string;
  let ownerPostId: string;

  const count = async (sql: string, parameters: unknown[] = []): Promise<number> =>
    Number(((await t.dataSource.query(sql, parameters)) as { n: number }[])[0].n);

  /** What alice could have written anywhere: rows counted per table. */
  const aliceRows = async () => ({
    posts: await count('SELECT count(*)::int AS n FROM posts WHERE author_did = $1', [alice.did]),
    comments: await count('SELECT count(*)::int AS n FROM comments WHERE author_did = $1', [alice.did]),
    upvotes: await count('SELECT count(*)::int AS n FROM post_upvotes WHERE voter_did = $1', [alice.did]),
    memberships: await count('SELECT count(*)::int AS n FROM space_memberships WHERE member_did = $1', [
      alice.did,
    ]),
    spaces: await count('SELECT count(*)::int AS n FROM spaces'),
    replays: await count('SELECT count(*)::int AS n FROM replay_jtis WHERE did = $1', [alice.did]),
    idempotency: await count('SELECT count(*)::int AS n FROM idempotency_keys'),
    profile: (
      (await t.dataSource.query('SELECT display_name FROM users WHERE did = $1', [alice.did])) as {
        display_name: string;
      }[]
    )[0].display_name,
  });

  beforeAll(async () => {
    t = await bootSpaces();
    [owner, alice, bob] = await Promise.all([person(t), person(t), person(t)]);
    expectStatus(await owner.signUp('pending-owner', 'Owner'), 201);
    expectStatus(await alice.signUp('pending-alice', 'Alice'), 201);
    expectStatus(await bob.signUp('pending-bob', 'Bob'), 201);
    spaceId = (await newSpace(owner, 'Leaving')).id;
    await admit(owner, spaceId, alice);
    await admit(owner, spaceId, bob);
    topic = await newTopic(owner, spaceId, 'Open', 'public');
    ownerPostId = (await newPost(owner, spaceId, { topic, body: 'hello' })).id;
    openSpaceId = (await newSpace(owner, 'Open door')).id;
    await makePublic(owner, openSpaceId);
  });

  afterAll(() => t?.close());

  // Alice's actions that write, each answered 201/200 when she is not leaving.
  const post = (actor: Actor, options = {}) =>
    actor.post(`/v1/spaces/${spaceId}/posts`, { topic, body: 'a new post' }, options);
  const comment = (actor: Actor) =>
    actor.post(`/v1/spaces/${spaceId}/posts/${ownerPostId}/comments`, { body: 'a comment' });
  const upvote = (actor: Actor) => actor.put(`/v1/spaces/${spaceId}/posts/${ownerPostId}/upvote`, {});
  const join = (actor: Actor) => actor.post(`/spaces/${openSpaceId}/join`);
  const createSpace = (actor: Actor) =>
    actor.post('/spaces', { displayName: 'Made while leaving', description: 'Would lose its owner' });

  it('while pending: every write and proof-bearing read is the 403, and nothing is stored', async () => {
    expectStatus(await alice.send('DELETE', '/profile', { confirmHandle: 'pending-alice' }), 202);
    const before = await aliceRows();

    expectPending(await post(alice));
    expectPending(await comment(alice));
    expectPending(await upvote(alice));
    expectPending(await join(alice));
    expectPending(await createSpace(alice));
    expectPending(await alice.patch('/profile', { displayName: 'Changed' }));
    expectPending(await alice.put('/profile/pins', { spaceIds: [spaceId] }));
    // Proof-bearing reads: the same 403 (so a client sees why), on optional-auth and gated routes.
    expectPending(await alice.get(`/v1/spaces/${spaceId}/posts`));
    expectPending(await alice.get(`/v1/spaces/${spaceId}/posts/${ownerPostId}/comments`));
    expectPending(await alice.get('/notifications'));
    // A write with an Idempotency-Key: no key recorded either.
    const keyed = await request(t.http)
      .post(`/v1/spaces/${spaceId}/posts`)
      .set(alice.headers('POST', `/v1/spaces/${spaceId}/posts`))
      .set('Idempotency-Key', 'leaving-1')
      .send({ topic, body: 'keyed' });
    expectPending(keyed);
    // Alice signing as an app with someone else's credential: refused too, even on an allowed route.
    const bobs = bob.grant(alice, ['read:profile', 'write:posts']);
    expectPending(await alice.get('/v1/profile', { credential: bobs }));
    expectPending(await post(alice, { credential: bobs }));

    expect(await aliceRows()).toEqual(before);
    expect(before).toMatchObject({ posts: 0, comments: 0, upvotes: 0, memberships: 1, profile: 'Alice' });
  });

  it('an anonymous route ignores the proof and answers as to anyone', async () => {
    for (const path of ['/v1/users', `/v1/spaces/${openSpaceId}`]) {
      const signed = await alice.get(path);
      expectStatus(signed, 200);
      expect(signed.text).toBe((await t.anonymous.get(path)).text);
    }
  });

  it('while pending: her own profile, asking again and restore work', async () => {
    const profile = await alice.get('/v1/profile');
    expectStatus(profile, 200);
    expect(profile.body.handle).toBe('pending-alice');
    // Asked again: accepted, the erasure moves to the new time (docs/decisions/0195).
    t.clock.offsetMs += 60_000;
    const again = await alice.send('DELETE', '/profile', { confirmHandle: 'pending-alice' });
    expectStatus(again, 202);
    const due = (
      (await t.dataSource.query('SELECT erasure_due_at FROM users WHERE did = $1', [alice.did])) as {
        erasure_due_at: Date;
      }[]
    )[0].erasure_due_at;
    expect(due.toISOString()).toBe(again.body.erasureScheduledAt);
  });

  it('while pending: she can still take her data out (the personal export routes)', async () => {
    const started = await alice.post('/v1/exports', {});
    expectStatus(started, 202);
    expectStatus(await alice.get(`/v1/exports/${started.body.id as string}`), 200);
    expectStatus(await alice.get('/v1/exports'), 200);
  });

  it('another person is unaffected meanwhile', async () => {
    expectStatus(await post(bob), 201);
    expectStatus(await comment(bob), 201);
    expectStatus(await upvote(bob), 200);
    expectStatus(await join(bob), 200);
    expectStatus(await bob.get('/notifications'), 200);
    expectStatus(await bob.get('/v1/profile'), 200);
  });

  it('the OpenAPI document and llms.txt mark the routes allowed while erasure is pending, and only them', async () => {
    const document = (await request(t.http).get('/openapi.json')).body as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const marked = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => operation['x-allowed-while-erasure-pending'] === true)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(marked.sort()).toEqual([
      'DELETE /profile',
      'GET /v1/exports',
      'GET /v1/exports/{export}',
      'GET /v1/profile',
      'POST /profile/restore',
      'POST /v1/exports',
    ]);
    const llms = (await request(t.http).get('/llms.txt')).text;
    expect(llms).toMatch(/^- POST \/profile\/restore .*; also while erasure is pending\]$/m);
    expect(llms).not.toMatch(/^- PATCH \/profile .*while erasure is pending/m);
  });

  it('a proof refused while pending spent nothing: after a restore the same jti is accepted, and everything works', async () => {
    const jti = 'leaving-jti-0001';
    expectPending(await post(alice, { jti }));
    expectStatus(await alice.post('/profile/restore', {}), 204);

    expectStatus(await post(alice, { jti }), 201);
    expectStatus(await comment(alice), 201);
    expectStatus(await upvote(alice), 200);
    expectStatus(await join(alice), 200);
    expectStatus(await alice.get(`/v1/spaces/${spaceId}/posts`), 200);
    expectStatus(await alice.patch('/profile', { displayName: 'Alice again' }), 200);
    expectStatus(await createSpace(alice), 201);
    // Now an owner: asking for erasure is refused until the space is transferred (0195).
    expectStatus(await alice.send('DELETE', '/profile', { confirmHandle: 'pending-alice' }), 409);
    expect(await aliceRows()).toMatchObject({ posts: 1, comments: 1, upvotes: 1, memberships: 3 });
  });
});
