import request from 'supertest';
import { DataSource } from 'typeorm';
import { Clock } from '../../../src/common/clock/clock';
import { generateKeySigner } from '../../../src/protocol/core';
import { IdentityCacheBusService } from '../../../src/protocol/relay/services/identity-cache-bus.service';
import {
  IDENTITY_CONFLICTING_EXTENSION_ERROR,
  PENDING_CAPACITY,
  PENDING_TTL_MS,
} from '../../../src/protocol/relay/services/relay-ingest.service';
import { TestApp } from '../../support/app';
import { ShiftedClock } from '../../support/clock';
import { allRoles, bootRelayApp, ingest, TestIdentity } from './support';

/** WEB-RELAY.md "Convergence": store-then-verify across batches. */
describe('relay convergence (e2e)', () => {
  let t: TestApp;
  let db: DataSource;
  const clock = new ShiftedClock();

  beforeAll(async () => {
    t = await bootRelayApp({ override: (builder) => builder.overrideProvider(Clock).useValue(clock) });
    db = t.app.get(DataSource);
  });

  afterAll(async () => {
    await t.close();
  });

  afterEach(() => {
    clock.offsetMs = 0;
  });

  async function buffered(cid: string): Promise<boolean> {
    const rows = (await db.query('SELECT 1 FROM relay_pending_operations WHERE cid = $1', [
      cid,
    ])) as unknown[];
    return rows.length === 1;
  }

  async function pendingOps(): Promise<number> {
    const response = await request(t.http).get('/relay/.well-known/plat-relay');
    expect(response.status).toBe(200);
    return response.body.stats.pendingOps as number;
  }

  it('a content genesis that arrived before its identity is sequenced when the identity arrives', async () => {
    const alice = new TestIdentity();
    const post = alice.createContent({ title: 'early' });
    const [first] = await ingest(t, [post.jws]);
    expect(first).toEqual({
      cid: post.cid,
      status: 'rejected',
      kind: 'content-op',
      error: `unknown identity ${alice.did}`,
    });
    expect(await buffered(post.cid)).toBe(true);
    expect((await request(t.http).get(`/relay/proof/v1/content/${post.contentId}`)).status).toBe(404);

    // The identity's batch answers for its own operation only.
    const results = await ingest(t, [alice.genesis]);
    expect(results).toEqual([{ cid: alice.head, status: 'new', kind: 'identity-op', chainId: alice.did }]);

    const content = await request(t.http).get(`/relay/proof/v1/content/${post.contentId}`);
    expect(content.status).toBe(200);
    expect(content.body).toMatchObject({
      contentId: post.contentId,
      genesisCID: post.cid,
      headCID: post.cid,
    });
    expect(await buffered(post.cid)).toBe(false);
    // Resubmitting it now is a plain duplicate.
    expect((await ingest(t, [post.jws]))[0]).toMatchObject({ cid: post.cid, status: 'duplicate' });
  });

  it('an operation of the resolving batch that waited on the buffered one answers new', async () => {
    const bea = new TestIdentity();
    const post = bea.createContent({ title: 'v1' });
    expect((await ingest(t, [post.jws]))[0].status).toBe('rejected');
    const edit = bea.updateContent(post.cid, { title: 'v2' });
    // The edit needs the buffered genesis, which needs the identity in the same batch.
    const results = await ingest(t, [edit.jws, bea.genesis]);
    expect(results.map((result) => [result.status, result.kind])).toEqual([
      ['new', 'content-op'],
      ['new', 'identity-op'],
    ]);
    expect(results[0]).toEqual({ cid: edit.cid, status: 'new', kind: 'content-op', chainId: post.contentId });
    const content = await request(t.http).get(`/relay/proof/v1/content/${post.contentId}`);
    expect(content.body.headCID).toBe(edit.cid);
    expect(await buffered(post.cid)).toBe(false);
    expect(await buffered(edit.cid)).toBe(false);
  });

  it('identity extensions submitted before their genesis are sequenced when it arrives', async () => {
    const bob = new TestIdentity();
    const genesisCid = bob.head;
    const first = bob.update(allRoles(bob.signer, generateKeySigner()));
    const second = bob.update(allRoles(bob.signer));
    // Newest first, each in its own batch.
    expect((await ingest(t, [second.jws]))[0]).toMatchObject({
      cid: second.cid,
      status: 'rejected',
      error: `unknown identity ${bob.did}`,
    });
    expect((await ingest(t, [first.jws]))[0]).toMatchObject({ cid: first.cid, status: 'rejected' });
    expect(await buffered(first.cid)).toBe(true);
    expect(await buffered(second.cid)).toBe(true);

    expect((await ingest(t, [bob.genesis]))[0].status).toBe('new');
    const state = await request(t.http).get(`/relay/proof/v1/identities/${bob.did}`);
    expect(state.status).toBe(200);
    expect(state.body.headCID).toBe(second.cid);
    const log = await request(t.http).get(`/relay/proof/v1/identities/${bob.did}/log`);
    expect(log.body.entries.map((entry: { cid: string }) => entry.cid)).toEqual([
      genesisCid,
      first.cid,
      second.cid,
    ]);
    expect(await buffered(first.cid)).toBe(false);
    expect(await buffered(second.cid)).toBe(false);
  });

  it('an identity change sequenced from the buffer is published to the identity cache bus', async () => {
    const ivy = new TestIdentity();
    await ingest(t, [ivy.genesis]);
    const first = ivy.update(allRoles(ivy.signer, generateKeySigner()));
    const second = ivy.update(allRoles(ivy.signer));
    expect((await ingest(t, [second.jws]))[0]).toMatchObject({ status: 'rejected' });
    expect(await buffered(second.cid)).toBe(true);
    const publish = jest.spyOn(t.app.get(IdentityCacheBusService), 'publish');
    try {
      expect((await ingest(t, [first.jws]))[0].status).toBe('new');
      // One invalidation per committed change: the batch's own op, then the buffered one.
      expect(publish.mock.calls.filter(([dids]) => dids.includes(ivy.did))).toHaveLength(2);
    } finally {
      publish.mockRestore();
    }
    const state = await request(t.http).get(`/relay/proof/v1/identities/${ivy.did}`);
    expect(state.body.headCID).toBe(second.cid);
    expect(await buffered(second.cid)).toBe(false);
  });

  it('permanent rejections are never buffered', async () => {
    const carol = new TestIdentity();
    await ingest(t, [carol.genesis]);
    const genesisCid = carol.head;
    const accepted = carol.update(allRoles(carol.signer, generateKeySigner()));
    expect((await ingest(t, [accepted.jws]))[0].status).toBe('new');
    // A second child of the genesis: conflicting extension.
    const conflicting = carol.update(allRoles(carol.signer), { previous: genesisCid, advance: false });
    // A bad signature on an extension of a known identity.
    const next = carol.update(allRoles(carol.signer), { advance: false });
    const [header, payload, signature] = next.jws.split('.');
    const bytes = Buffer.from(signature, 'base64url');
    bytes[0] ^= 0x01;
    const forged = [header, payload, bytes.toString('base64url')].join('.');
    const results = await ingest(t, [conflicting.jws, forged]);
    expect(results[0]).toMatchObject({ status: 'rejected', error: IDENTITY_CONFLICTING_EXTENSION_ERROR });
    expect(results[1]).toMatchObject({ status: 'rejected' });
    expect(results[1].error).toMatch(/signature/i);
    expect(await buffered(conflicting.cid)).toBe(false);
    expect(await buffered(next.cid)).toBe(false);
  });

  it('a buffered forgery is dropped, not sequenced, once its dependency arrives', async () => {
    const dan = new TestIdentity();
    const post = dan.createContent({ title: 'forged' });
    const [header, payload, signature] = post.jws.split('.');
    const bytes = Buffer.from(signature, 'base64url');
    bytes[0] ^= 0x01;
    const forged = [header, payload, bytes.toString('base64url')].join('.');
    expect((await ingest(t, [forged]))[0].status).toBe('rejected');
    expect(await buffered(post.cid)).toBe(true);
    expect((await ingest(t, [dan.genesis]))[0].status).toBe('new');
    expect(await buffered(post.cid)).toBe(false);
    expect((await request(t.http).get(`/relay/proof/v1/content/${post.contentId}`)).status).toBe(404);
  });

  it('stats.pendingOps counts the buffer', async () => {
    const before = await pendingOps();
    const erin = new TestIdentity();
    const one = erin.createContent({ title: 'one' });
    const two = erin.createContent({ title: 'two' });
    await ingest(t, [one.jws, two.jws]);
    await ingest(t, [one.jws]); // a resubmission is not buffered twice
    expect(await pendingOps()).toBe(before + 2);
    await ingest(t, [erin.genesis]);
    expect(await pendingOps()).toBe(before);
  });

  it('a buffered operation expires a day after it was received', async () => {
    const fay = new TestIdentity();
    const post = fay.createContent({ title: 'stale' });
    expect((await ingest(t, [post.jws]))[0].status).toBe('rejected');
    expect(await buffered(post.cid)).toBe(true);
    const before = await pendingOps();

    clock.offsetMs = PENDING_TTL_MS - 60_000;
    expect(await pendingOps()).toBe(before);
    clock.offsetMs = PENDING_TTL_MS + 1000;
    expect(await pendingOps()).toBe(before - 1);

    expect((await ingest(t, [fay.genesis]))[0].status).toBe('new');
    expect(await buffered(post.cid)).toBe(false);
    expect((await request(t.http).get(`/relay/proof/v1/content/${post.contentId}`)).status).toBe(404);
  });

  it('a full buffer retains nothing new', async () => {
    await db.query('DELETE FROM relay_pending_operations');
    await db.query(
      `INSERT INTO relay_pending_operations (cid, jws, kind, received_at)
       SELECT 'filler' || n, 'x', 'content-op', now() FROM generate_series(1, $1::int) AS n`,
      [PENDING_CAPACITY],
    );
    try {
      const gus = new TestIdentity();
      const post = gus.createContent({ title: 'no room' });
      expect((await ingest(t, [post.jws]))[0]).toMatchObject({
        status: 'rejected',
        error: `unknown identity ${gus.did}`,
      });
      expect(await buffered(post.cid)).toBe(false);
      expect(await pendingOps()).toBe(PENDING_CAPACITY);
    } finally {
      await db.query(`DELETE FROM relay_pending_operations WHERE cid LIKE 'filler%'`);
    }
  });
});
