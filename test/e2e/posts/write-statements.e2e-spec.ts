import { IdentityStateService } from '../../../src/protocol/relay/services/identity-state.service';
import { POST_SCHEMA } from '../../../src/posts/domain/post-document';
import { Actor } from '../../support/actors';
import { naming, ownWork, statementsDuring } from '../../support/statements';
import {
  admit,
  bootSpaces,
  expectStatus,
  makePublic,
  newPost,
  newSpace,
  newTopic,
  person,
  SpacesTestApp,
} from './support';

/**
 * Every statement of one post create, auth, BEGIN and COMMIT included
 * (docs/decisions/0075-the-post-write-in-7-statements.md), and the announcement's row in the job
 * outbox, recorded with the post (docs/decisions/0125-no-background-work-lost.md), and the webhook
 * fan-out's row beside it (docs/decisions/0162-webhook-delivery-state-in-postgresql.md: one row
 * whatever the number of subscriptions).
 */
const MAX_STATEMENTS = 10;

describe('a post create sends at most 10 statements (0075-the-post-write-in-7-statements, with the job outbox of 0125-no-background-work-lost and the webhook fan-out of 0162)', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let member: Actor;
  let app: Actor;
  let space: { id: string; did: string };
  let publicTopic: string;
  let membersTopic: string;

  beforeAll(async () => {
    // The background jobs a post starts (its announcement to the members) stay out of the count.
    t = await bootSpaces({
      env: { CHAIN_OUTBOX_SWEEP_MS: String(3600_000), NOTIFY_ANNOUNCE_DELAY_MS: String(3600_000) },
    });
    [owner, member, app] = await Promise.all([person(t), person(t), person(t)]);
    space = await newSpace(owner, 'Counted');
    await makePublic(owner, space.id);
    await admit(owner, space.id, member);
    publicTopic = await newTopic(owner, space.id, 'Open', 'public');
    membersTopic = await newTopic(owner, space.id, 'Members', 'members');
    // The author's identity state is cached from here on, as on any busy replica.
    await newPost(member, space.id, { topic: publicTopic, body: 'warm-up' });
  });

  afterAll(() => t?.close());

  it('a public topic of a public space: the post and its content chain, the chain on the relay at once', async () => {
    let post: Record<string, unknown> = {};
    const statements = await statementsDuring(async () => {
      post = await newPost(member, space.id, {
        topic: publicTopic,
        title: 'Counted',
        body: 'above<!--fold-->below',
      });
    });
    expect(ownWork(statements).length).toBeLessThanOrEqual(MAX_STATEMENTS);
    // One statement stores the chain; no relay ingest (no pending-operations sweep), no outbox.
    expect(naming(statements, 'relay_operations')).toHaveLength(1);
    expect(naming(statements, 'relay_pending_operations')).toEqual([]);
    expect(naming(statements, 'chain_publications')).toEqual([]);
    // The announcement and the webhook fan-out (0162-webhook-delivery-state-in-postgresql).
    expect(naming(statements, 'job_outbox')).toHaveLength(2);
    expect(statements.filter((statement) => statement === 'START TRANSACTION')).toHaveLength(1);

    const protocol = post.protocol as { contentId: string; headOpCid: string };
    expect(protocol).toEqual({ contentId: expect.any(String), headOpCid: expect.any(String) });
    const chain = await t.anonymous.get(`/relay/proof/v1/content/${protocol.contentId}`);
    expectStatus(chain, 200);
    expect(chain.body.headCID).toBe(protocol.headOpCid);
    const blob = await t.anonymous.get(`/relay/content/${protocol.contentId}/blob`);
    expectStatus(blob, 200);
    expect(blob.body).toEqual({
      $schema: POST_SCHEMA,
      format: 'long-post',
      publishedAt: post.publishedAt,
      title: 'Counted',
      body: 'above',
      credits: [{ did: member.did, role: 'author' }],
    });
  });

  it('a members-only topic: no chain', async () => {
    let post: Record<string, unknown> = {};
    const statements = await statementsDuring(async () => {
      post = await newPost(member, space.id, { topic: membersTopic, body: 'members only' });
    });
    expect(ownWork(statements).length).toBeLessThanOrEqual(MAX_STATEMENTS);
    expect(naming(statements, 'relay_operations')).toEqual([]);
    expect(post).not.toHaveProperty('protocol');
  });

  it('still at most 10 when the author’s identity state is not cached (a new replica, or past its TTL)', async () => {
    t.app.get(IdentityStateService).reset();
    const statements = await statementsDuring(() =>
      newPost(member, space.id, { topic: publicTopic, body: 'a cold cache' }),
    );
    expect(naming(statements, 'relay_identity_chains')).toHaveLength(1);
    expect(ownWork(statements).length).toBeLessThanOrEqual(MAX_STATEMENTS);
  });

  it('two identical public posts in one millisecond get two chains (the second genesis signed a ms later)', async () => {
    const at = t.clock.now();
    const frozen = jest.spyOn(t.clock, 'now').mockImplementation(() => new Date(at.getTime()));
    const same = { topic: publicTopic, title: 'Twice', body: 'the very same words' };
    let first: Record<string, unknown>;
    let second: Record<string, unknown> = {};
    let statements: string[] = [];
    try {
      first = await newPost(member, space.id, same);
      statements = await statementsDuring(async () => {
        second = await newPost(member, space.id, same);
      });
    } finally {
      frozen.mockRestore();
    }
    expect(second.publishedAt).toBe(first.publishedAt);
    // Stored with the post all the same (the relay statement again, the post's chain columns after it).
    expect(naming(statements, 'relay_operations')).toHaveLength(2);
    expect(naming(statements, 'chain_publications')).toEqual([]);
    const chains = [first, second].map((post) => post.protocol as { contentId: string; headOpCid: string });
    expect(chains[1].contentId).not.toBe(chains[0].contentId);
    for (const [index, post] of [first, second].entries()) {
      const state = await t.anonymous.get(`/relay/proof/v1/content/${chains[index].contentId}`);
      expect(state.body.headCID).toBe(chains[index].headOpCid);
      const stored = await member.get(`/v1/spaces/${space.id}/posts/${post.id as string}`);
      expect(stored.body.post.protocol).toEqual(chains[index]);
    }
  });

  it('the one query answers as before: any space reference, a deleted topic is the 404', async () => {
    const domain = `space-${space.id.slice('space_'.length)}`;
    const byDomain = await newPost(member, domain, { topic: membersTopic, body: 'by subdomain' });
    expect(byDomain.topics).toEqual([{ id: membersTopic, name: 'Members' }]);
    await newPost(member, space.did, { topic: membersTopic, body: 'by DID' });
    const doomed = await newTopic(owner, space.id, 'Doomed', 'members');
    expectStatus(await owner.delete(`/spaces/${space.id}/topics/${doomed}`), 204);
    const refused = await member.post(`/v1/spaces/${space.id}/posts`, { topic: doomed, body: 'x' });
    expectStatus(refused, 404);
  });

  it('the same through a credential, whose revocation is looked up on every request', async () => {
    const credential = member.grant(app, ['read:posts', 'write:posts']);
    await newPost(app, space.id, { topic: membersTopic, body: 'warm-up' }, { credential });
    for (const topic of [publicTopic, membersTopic]) {
      const statements = await statementsDuring(() =>
        newPost(app, space.id, { topic, body: 'through an app' }, { credential }),
      );
      expect(naming(statements, 'relay_revocations')).toHaveLength(1);
      expect(ownWork(statements).length).toBeLessThanOrEqual(MAX_STATEMENTS);
    }
    await member.revoke(credential);
    const refused = await app.post(
      `/v1/spaces/${space.id}/posts`,
      { topic: publicTopic, body: 'revoked' },
      { credential },
    );
    expectStatus(refused, 403);
  });
});
