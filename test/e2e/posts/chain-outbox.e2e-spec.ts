import { parseEntityId } from '../../../src/common/ids/entity-id';
import { ChainOutboxSweepSubscriber } from '../../../src/protocol/publishing/events/chain-outbox-sweep.subscriber';
import { Actor } from '../../support/actors';
import { refuseWrites } from '../../support/faults';
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

interface Protocol {
  contentId: string;
  headOpCid: string;
}

/** Longer than any backoff of the outbox (capped at 10 minutes). */
const PAST_EVERY_BACKOFF_MS = 10 * 60_000 + 1000;

/**
 * The chain outbox (docs/decisions/0062-chain-publication-the-outbox-and-the-job-queue.md): a public post's content chain is written to the outbox in
 * the post's transaction; what the relay could not take when the post was written is published
 * later by the sweep job (BullMQ with REDIS_URL, in-process without), so a public post always gets
 * its chain and a post that stops being public always loses it.
 */
describe('chain outbox: publication after commit is retried until the chain matches the row', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let member: Actor;
  let space: { id: string };
  let publicTopic: string;

  beforeAll(async () => {
    // The sweep job runs every 100 ms here; what is due is decided by the test's clock.
    t = await bootSpaces({ env: { CHAIN_OUTBOX_SWEEP_MS: '100' } });
    [owner, member] = await Promise.all([person(t), person(t)]);
    space = await newSpace(owner, 'Outbox');
    await makePublic(owner, space.id);
    await admit(owner, space.id, member);
    publicTopic = await newTopic(owner, space.id, 'Open', 'public');
  });

  afterAll(() => t?.close());

  const rowId = (postId: string) => parseEntityId('post', postId);
  const postPath = (postId: string) => `/v1/spaces/${space.id}/posts/${postId}`;
  const protocolOf = async (postId: string): Promise<Protocol | undefined> => {
    const response = await member.get(postPath(postId));
    expectStatus(response, 200);
    return response.body.post.protocol as Protocol | undefined;
  };
  const relayState = async (contentId: string) => {
    const response = await t.anonymous.get(`/relay/proof/v1/content/${contentId}`);
    expectStatus(response, 200);
    return response.body as { headCID: string; state: { isDeleted: boolean } };
  };
  const blob = async (contentId: string) =>
    (await t.anonymous.get(`/relay/content/${contentId}/blob`)).body as Record<string, unknown>;
  const pending = (): Promise<
    { subject_id: string; attempts: number; last_error: string | null; version: number }[]
  > => t.dataSource.query('SELECT subject_id, attempts, last_error, version FROM chain_publications');
  /** Waits for the repeating sweep job (real time: it runs on its own schedule). */
  const eventually = async <T>(probe: () => Promise<T | undefined>): Promise<T> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error('the sweep job did not finish in time');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('a public post written while the relay fails answers 201, and the job publishes its newest version', async () => {
    const repair = await refuseWrites(t.dataSource, 'relay_operations', 'INSERT');
    let postId: string;
    try {
      const post = await newPost(member, space.id, { topic: publicTopic, body: 'first' });
      postId = post.id;
      expect(post).not.toHaveProperty('protocol');
      expect(await pending()).toEqual([
        {
          subject_id: rowId(post.id),
          attempts: 1,
          last_error: expect.stringContaining('forced failure'),
          version: 1,
        },
      ]);
      // An edit while the relay still fails: the outbox keeps one entry, of the newer version.
      expectStatus(await member.patch(postPath(post.id), { body: 'edited' }), 200);
      expect(await pending()).toEqual([expect.objectContaining({ subject_id: rowId(post.id), version: 2 })]);
    } finally {
      await repair();
    }
    // Not due yet: the sweep leaves it alone until its backoff has passed.
    await t.app.get(ChainOutboxSweepSubscriber).sweepAll();
    expect(await protocolOf(postId)).toBeUndefined();

    t.clock.offsetMs += PAST_EVERY_BACKOFF_MS;
    await eventually(async () => ((await pending()).length === 0 ? true : undefined));
    const chain = (await protocolOf(postId))!;
    expect((await relayState(chain.contentId)).headCID).toBe(chain.headOpCid);
    expect((await blob(chain.contentId)).body).toBe('edited');
    expect(await pending()).toEqual([]);
  });

  it('a topic made private while the relay fails has its posts retracted by the job', async () => {
    const topic = await newTopic(owner, space.id, 'Soon private', 'public');
    const post = await newPost(member, space.id, { topic, body: 'was public' });
    const chain = post.protocol as Protocol;
    expect(chain.contentId).toEqual(expect.any(String));

    const repair = await refuseWrites(t.dataSource, 'relay_operations', 'INSERT');
    try {
      const changed = await owner.put(`/spaces/${space.id}/topics/${topic}`, {
        name: 'Soon private',
        access: 'members',
      });
      expectStatus(changed, 200);
      expect((await relayState(chain.contentId)).state.isDeleted).toBe(false);
      expect(await pending()).toEqual([expect.objectContaining({ subject_id: rowId(post.id), attempts: 1 })]);
    } finally {
      await repair();
    }
    t.clock.offsetMs += PAST_EVERY_BACKOFF_MS;
    await eventually(async () => ((await pending()).length === 0 ? true : undefined));
    expect((await relayState(chain.contentId)).state.isDeleted).toBe(true);
  });

  it('a write that rolls back leaves nothing in the outbox', async () => {
    const repair = await refuseWrites(t.dataSource, 'posts', 'INSERT');
    try {
      const response = await member.post(`/v1/spaces/${space.id}/posts`, {
        topic: publicTopic,
        body: 'never',
      });
      expectStatus(response, 500);
    } finally {
      await repair();
    }
    expect(await pending()).toEqual([]);
  });
});
