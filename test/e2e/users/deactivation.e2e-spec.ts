import { Response } from 'supertest';
import { DomainEvents } from '../../../src/infrastructure/events/domain-events.service';
import { IdentityDeactivated, IdentityRestored } from '../../../src/protocol';
import { IdentityCacheBusService } from '../../../src/protocol/relay/services/identity-cache-bus.service';
import { Actor, publish } from '../../support/actors';
import { addToGroup, admit, makePublic, newGroup, newSpace, person } from '../memberships/support';
import { newPost, newTopic } from '../posts/support';
import { bootSpaces, expectNotFound, expectStatus, SpacesTestApp } from '../spaces/support';

/**
 * Deactivation follows the identity chain (issue 35 item 1;
 * docs/decisions/0190-deactivation-follows-the-identity-chain.md): a `delete` ingested by the relay,
 * submitted as any client would (POST /relay/proof/v1/operations), hides the account everywhere at
 * once, and a `restore` brings every read back as it was.
 */
describe('deactivation follows the identity chain (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let alice: Actor;
  let reader: Actor;
  let app: Actor;
  let spaceId: string;
  let alicePostId: string;
  let ownerPostId: string;
  let aliceIdentityId: string;
  let credential: string;
  const seen: string[] = [];

  beforeAll(async () => {
    t = await bootSpaces();
    const events = t.app.get(DomainEvents);
    events.afterCommit(IdentityDeactivated, async (event) => void seen.push(`deactivated ${event.did}`));
    events.afterCommit(IdentityRestored, async (event) => void seen.push(`restored ${event.did}`));
    [owner, alice, reader, app] = await Promise.all([person(t), person(t), person(t), person(t)]);
    expectStatus(await owner.signUp('deact-owner', 'Owner'), 201);
    const account = await alice.signUp('deact-alice', 'Alice');
    expectStatus(account, 201);
    aliceIdentityId = account.body.id as string;
    expectStatus(await alice.patch('/profile', { isPublic: true, bio: 'Makes things' }), 200);
    expectStatus(await reader.signUp('deact-reader'), 201);

    spaceId = (await newSpace(owner, 'Deactivation')).id;
    await makePublic(owner, spaceId);
    await admit(owner, spaceId, alice);
    await admit(owner, spaceId, reader);
    const group = await newGroup(owner, spaceId);
    await addToGroup(owner, spaceId, group.id, alice);
    const topic = await newTopic(owner, spaceId, 'Open', 'public');
    alicePostId = (await newPost(alice, spaceId, { topic, body: 'hello from alice' })).id;
    ownerPostId = (await newPost(owner, spaceId, { topic, body: 'hello from the owner' })).id;
    expectStatus(
      await alice.post(`/v1/spaces/${spaceId}/posts/${ownerPostId}/comments`, { body: 'nice one' }),
      201,
    );
    expectStatus(
      await owner.post(`/spaces/${spaceId}/pages`, {
        title: 'Credits',
        slug: 'credits',
        body: `Thanks [@alice](mention:${aliceIdentityId}).`,
      }),
      201,
    );
    credential = alice.grant(app, ['read:profile']);
  });

  afterAll(() => t?.close());

  const clock = () => t.clock.now();

  /** Every read the deactivation touches, as its status and bytes. */
  async function reads(): Promise<Record<string, Response>> {
    const calls: Record<string, () => Promise<Response>> = {
      profileByHandle: () => t.anonymous.get('/v1/users/deact-alice'),
      profileByDid: () => t.anonymous.get(`/v1/users/${alice.did}`),
      profileById: () => t.anonymous.get(`/v1/users/${aliceIdentityId}`),
      profileSpaces: () => t.anonymous.get('/v1/users/deact-alice/spaces'),
      directory: () => t.anonymous.get('/v1/users'),
      members: () => owner.get(`/spaces/${spaceId}/members`),
      groups: () => owner.get(`/spaces/${spaceId}/groups`),
      listing: () => t.anonymous.get(`/v1/spaces/${spaceId}/posts`),
      fullPost: () => t.anonymous.get(`/v1/spaces/${spaceId}/posts/${alicePostId}`),
      feed: () => reader.get('/v1/feed'),
      comments: () => reader.get(`/v1/spaces/${spaceId}/posts/${ownerPostId}/comments`),
      page: () => t.anonymous.get(`/v1/spaces/${spaceId}/pages/credits`),
      credential: () => app.get('/v1/profile', { credential }),
      proof: () => alice.get('/v1/profile'),
    };
    const answers: Record<string, Response> = {};
    for (const [name, call] of Object.entries(calls)) answers[name] = await call();
    return answers;
  }

  const json = (answer: { text: string }) => JSON.parse(answer.text) as Record<string, unknown>;
  const cardOf = (answer: { text: string }, id: string) =>
    (json(answer).items as { id: string; author: unknown }[]).find((item) => item.id === id);

  it('a delete hides the account everywhere at once; a restore brings every read back as it was', async () => {
    const before = await reads();
    for (const [name, answer] of Object.entries(before)) {
      if (answer.status !== 200) throw new Error(`${name}: ${answer.status} ${answer.text}`);
    }
    const named = { did: alice.did, displayName: 'Alice', username: 'deact-alice' };
    expect(cardOf(before.listing, alicePostId)?.author).toEqual(named);
    expect(json(before.page).body).toBe(`Thanks [@alice](mention:${aliceIdentityId}).`);
    for (const name of ['directory', 'members', 'comments'] as const) {
      expect(before[name].text).toContain(alice.did);
    }

    await publish(t, [alice.identity.delete({ clock }).jws]);
    expect(seen).toEqual([`deactivated ${alice.did}`]);
    const after = await reads();

    // The profile, by handle, DID and id, and its spaces: the constant 404.
    for (const name of ['profileByHandle', 'profileByDid', 'profileById', 'profileSpaces'] as const) {
      expectNotFound(after[name]);
    }
    // Not in the directory, not listed as a member; counts are of memberships and are kept.
    expect(after.directory.text).not.toContain(alice.did);
    expect(after.members.text).not.toContain(alice.did);
    expect(after.members.text).toContain(reader.did);
    expect(after.groups.text).toBe(before.groups.text);
    // A post's author is null in the listing, the full post and the feed; a comment's only its DID.
    expect(cardOf(after.listing, alicePostId)?.author).toBeNull();
    expect(cardOf(after.listing, ownerPostId)?.author).toEqual(cardOf(before.listing, ownerPostId)?.author);
    expect((json(after.fullPost).post as { author: unknown }).author).toBeNull();
    expect(cardOf(after.feed, alicePostId)?.author).toBeNull();
    const comment = (json(after.comments).items as { author: unknown }[])[0];
    expect(comment.author).toEqual({ did: alice.did });
    expect(after.comments.text).not.toContain('deact-alice');
    // A mention renders as text, as for someone without a public profile.
    expect(json(after.page).body).toBe('Thanks @alice.');
    expect(after.page.text).not.toContain(aliceIdentityId);
    // Credentials the person issued are refused, and so are their request proofs.
    expect(after.credential.status).toBe(403);
    expect(after.proof.status).toBe(401);

    await publish(t, [alice.identity.restore({ clock }).jws]);
    expect(seen).toEqual([`deactivated ${alice.did}`, `restored ${alice.did}`]);
    const restored = await reads();
    // Byte for byte, but for the protocol block's identity head in profiles: the chain moved on
    // (to the restore).
    const headOf = (answer: Response) => (json(answer).protocol as { headOpCid: string }).headOpCid;
    const withHead = ['profileByHandle', 'profileByDid', 'profileById', 'credential', 'proof'];
    for (const name of Object.keys(before)) {
      const answer = (response: Response, head?: string) => ({
        name,
        status: response.status,
        text: head ? response.text.replace(headOf(response), head) : response.text,
      });
      if (withHead.includes(name)) {
        expect(headOf(restored[name])).toBe(alice.identity.headCid);
        expect(answer(restored[name], headOf(before[name]))).toEqual(answer(before[name]));
      } else {
        expect(answer(restored[name])).toEqual(answer(before[name]));
      }
    }
  });

  it('takes effect at once on every replica: reads, and proofs through the identity cache bus', async () => {
    // Two replicas sharing one database and Redis: the delete is ingested by one of them.
    const env = { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' };
    const [first, second] = [
      await bootSpaces({ env, databaseUrl: t.databaseUrl }),
      await bootSpaces({ env, databaseUrl: t.databaseUrl }),
    ];
    try {
      for (const replica of [first, second])
        expect(await replica.app.get(IdentityCacheBusService).ready()).toBe(true);
      const bob = await Actor.create(first, { clock });
      expectStatus(await bob.signUp('deact-bob', 'Bob'), 201);
      expectStatus(await bob.patch('/profile', { isPublic: true }), 200);
      const bobOnSecond = await Actor.create(second, { identity: bob.identity, clock });
      const profile = () => second.anonymous.get('/v1/users/deact-bob');
      expectStatus(await profile(), 200);
      // Warms the second replica's identity cache.
      expectStatus(await bobOnSecond.get('/v1/profile'), 200);

      await publish(first, [bob.identity.delete({ clock }).jws]);
      expectNotFound(await profile());
      expect((await second.anonymous.get('/v1/users')).text).not.toContain(bob.did);
      expect((await bobOnSecond.get('/v1/profile')).status).toBe(401);
      // Only that identity: another account stays as it was.
      expectStatus(await second.anonymous.get('/v1/users/deact-alice'), 200);

      await publish(first, [bob.identity.restore({ clock }).jws]);
      expectStatus(await profile(), 200);
      expectStatus(await bobOnSecond.get('/v1/profile'), 200);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});
