import request from 'supertest';
import { DataSource } from 'typeorm';
import { generateKeySigner, multikeyEntry } from '../../../src/protocol/core';
import {
  IDENTITY_CONFLICTING_EXTENSION_ERROR,
  RelayIngestService,
} from '../../../src/protocol/relay/services/relay-ingest.service';
import { TestApp } from '../../support/app';
import { allRoles, bootRelayApp, ingest, TestIdentity, withPayload } from './support';

describe('relay ingest (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootRelayApp();
  });

  afterAll(async () => {
    await t.close();
  });

  describe('statuses', () => {
    it('a genesis is new, the same token again is a duplicate', async () => {
      const alice = new TestIdentity();
      const [first] = await ingest(t, [alice.genesis]);
      expect(first).toEqual({ cid: alice.head, status: 'new', kind: 'identity-op', chainId: alice.did });
      const [again] = await ingest(t, [alice.genesis]);
      expect(again).toEqual({
        cid: alice.head,
        status: 'duplicate',
        kind: 'identity-op',
        chainId: alice.did,
      });
      const log = await request(t.http).get(`/relay/proof/v1/identities/${alice.did}/log`);
      expect(log.body.entries).toHaveLength(1);
    });

    it('a tampered payload or signature is rejected and nothing is stored', async () => {
      const bob = new TestIdentity();
      const tamperedPayload = withPayload(bob.genesis, (payload) => ({
        ...payload,
        createdAt: '2020-01-01T00:00:00.000Z',
      }));
      const [header, payload, signature] = bob.genesis.split('.');
      const bytes = Buffer.from(signature, 'base64url');
      bytes[0] ^= 0x01;
      const tamperedSignature = [header, payload, bytes.toString('base64url')].join('.');
      const results = await ingest(t, [tamperedPayload, tamperedSignature, 'not-a-jws']);
      expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
      expect(results[0].error).toMatch(/cid/i);
      expect(results[1].error).toMatch(/signature/i);
      expect(results[2]).toMatchObject({ cid: '', status: 'rejected' });
      const state = await request(t.http).get(`/relay/proof/v1/identities/${bob.did}`);
      expect(state.status).toBe(404);
    });

    it('results come back in input order whatever the processing order (dependency sort)', async () => {
      const carol = new TestIdentity();
      const post = carol.createContent({ title: 'first' });
      const update = carol.update(allRoles(carol.signer, generateKeySigner()));
      // Content before identity, extension before genesis: all verify within one batch.
      const results = await ingest(t, [post.jws, update.jws, carol.genesis]);
      expect(results.map((result) => [result.status, result.kind])).toEqual([
        ['new', 'content-op'],
        ['new', 'identity-op'],
        ['new', 'identity-op'],
      ]);
      expect(results[0].chainId).toBe(post.contentId);
    });

    it('an extension of an unknown identity, or of an unknown parent, is rejected', async () => {
      const dave = new TestIdentity();
      const orphan = dave.update(allRoles(dave.signer));
      const [result] = await ingest(t, [orphan.jws]);
      expect(result).toMatchObject({ status: 'rejected', error: `unknown identity ${dave.did}` });
    });

    it('artifacts and countersignatures are refused as unsupported', async () => {
      const erin = new TestIdentity();
      const artifact = [
        Buffer.from(
          JSON.stringify({ alg: 'EdDSA', typ: 'did:plat:artifact', kid: `${erin.did}#k` }),
        ).toString('base64url'),
        Buffer.from(JSON.stringify({ version: 1 })).toString('base64url'),
        'AA',
      ].join('.');
      const [result] = await ingest(t, [artifact]);
      expect(result).toMatchObject({
        status: 'rejected',
        error: 'unsupported operation type: did:plat:artifact',
      });
    });

    it('the same CID under a different token is rejected, not a duplicate', async () => {
      const frank = new TestIdentity();
      await ingest(t, [frank.genesis]);
      const update = frank.update(allRoles(frank.signer, generateKeySigner()));
      expect((await ingest(t, [update.jws]))[0].status).toBe('new');
      // Same header and payload (so the same CID), another signature.
      const [header, payload] = update.jws.split('.');
      const [other] = await ingest(t, [`${header}.${payload}.${'A'.repeat(86)}`]);
      expect(other).toMatchObject({
        cid: update.cid,
        status: 'rejected',
        error: 'an operation with this CID is already stored with a different token',
      });
      const [again] = await ingest(t, [update.jws]);
      expect(again).toMatchObject({ cid: update.cid, status: 'duplicate' });
    });
  });

  describe('time', () => {
    it('refuses operations dated more than 24 hours ahead', async () => {
      const kim = new TestIdentity();
      const post = kim.createContent({ title: 'now' });
      await ingest(t, [kim.genesis, post.jws]);
      const farFuture = new Date(Date.now() + 25 * 3600 * 1000).toISOString();
      const nearFuture = new Date(Date.now() + 23 * 3600 * 1000).toISOString();
      const [refused] = await ingest(t, [
        kim.updateContent(post.cid, { title: 'later' }, { createdAt: farFuture }).jws,
      ]);
      expect(refused.status).toBe('rejected');
      expect(refused.error).toMatch(/24 hours in the future/);
      const [accepted] = await ingest(t, [
        kim.updateContent(post.cid, { title: 'soon' }, { createdAt: nearFuture }).jws,
      ]);
      expect(accepted.status).toBe('new');
    });

    it('a content chain submitted children-first in one batch still verifies', async () => {
      const lee = new TestIdentity();
      const genesis = lee.createContent({ v: 1 });
      const second = lee.updateContent(genesis.cid, { v: 2 });
      const third = lee.updateContent(second.cid, { v: 3 });
      const results = await ingest(t, [third.jws, second.jws, genesis.jws, lee.genesis]);
      expect(results.map((result) => result.status)).toEqual(['new', 'new', 'new', 'new']);
    });
  });

  describe('identity linearity', () => {
    it('a second extension of a committed parent is refused with the named error', async () => {
      const grace = new TestIdentity();
      await ingest(t, [grace.genesis]);
      const genesisCid = grace.head;
      const first = grace.update(allRoles(grace.signer, generateKeySigner()), { previous: genesisCid });
      const rival = grace.update(allRoles(grace.signer, generateKeySigner()), {
        previous: genesisCid,
        advance: false,
      });
      expect((await ingest(t, [first.jws]))[0].status).toBe('new');
      const [refused] = await ingest(t, [rival.jws]);
      expect(refused).toMatchObject({ status: 'rejected', error: IDENTITY_CONFLICTING_EXTENSION_ERROR });
      const state = await request(t.http).get(`/relay/proof/v1/identities/${grace.did}`);
      expect(state.body.headCID).toBe(first.cid);
    });

    it('two concurrent extensions of one identity never both commit', async () => {
      const ingestion = t.app.get(RelayIngestService);
      for (let round = 0; round < 5; round++) {
        const heidi = new TestIdentity();
        await ingest(t, [heidi.genesis]);
        const left = heidi.update(allRoles(heidi.signer, generateKeySigner()), { advance: false });
        const right = heidi.update(allRoles(heidi.signer, generateKeySigner()), { advance: false });
        const [[a], [b]] = await Promise.all([ingestion.ingest([left.jws]), ingestion.ingest([right.jws])]);
        expect([a.status, b.status].sort()).toEqual(['new', 'rejected']);
        expect([a, b].find((result) => result.status === 'rejected')!.error).toBe(
          IDENTITY_CONFLICTING_EXTENSION_ERROR,
        );
        const rows = await t.app
          .get(DataSource)
          .query(`SELECT count(*)::int AS n FROM relay_operations WHERE chain_id = $1`, [heidi.did]);
        expect(rows[0].n).toBe(2);
      }
    });
  });

  describe('key removal', () => {
    it('a removed controller key can no longer extend the identity', async () => {
      const old = generateKeySigner();
      const fresh = generateKeySigner();
      const ivan = new TestIdentity(old);
      const rotate = ivan.update(allRoles(fresh));
      expect((await ingest(t, [ivan.genesis, rotate.jws])).map((r) => r.status)).toEqual(['new', 'new']);
      const byOldKey = ivan.update(allRoles(old), { signer: old, advance: false });
      const [refused] = await ingest(t, [byOldKey.jws]);
      expect(refused.status).toBe('rejected');
      expect(refused.error).toMatch(/not a current controller key/);
      const byNewKey = ivan.update(allRoles(fresh, old), { signer: fresh });
      expect((await ingest(t, [byNewKey.jws]))[0].status).toBe('new');
    });

    it('a content op signed by a key removed from the identity is rejected', async () => {
      const old = generateKeySigner();
      const fresh = generateKeySigner();
      const judy = new TestIdentity(old);
      const post = judy.createContent({ title: 'before rotation' });
      expect((await ingest(t, [judy.genesis, post.jws])).map((r) => r.status)).toEqual(['new', 'new']);
      const beforeRotation = judy.updateContent(post.cid, { title: 'still fine' }, { signer: old });
      expect((await ingest(t, [beforeRotation.jws]))[0].status).toBe('new');
      await ingest(t, [judy.update(allRoles(fresh)).jws]);
      const afterRotation = judy.updateContent(beforeRotation.cid, { title: 'too late' }, { signer: old });
      const [refused] = await ingest(t, [afterRotation.jws]);
      expect(refused.status).toBe('rejected');
      expect(refused.error).toMatch(/not among the current keys/);
      const byFresh = judy.updateContent(beforeRotation.cid, { title: 'new key' }, { signer: fresh });
      expect((await ingest(t, [byFresh.jws]))[0].status).toBe('new');
    });

    it('a deleted identity signs nothing new, and its chains are sealed', async () => {
      const mallory = new TestIdentity();
      const post = mallory.createContent({ title: 'x' });
      await ingest(t, [mallory.genesis, post.jws]);
      await ingest(t, [mallory.delete().jws]);
      const [refused] = await ingest(t, [mallory.updateContent(post.cid, { title: 'y' }).jws]);
      expect(refused).toMatchObject({ status: 'rejected' });
      expect(refused.error).toMatch(/deleted/);
    });
  });

  describe('content chains', () => {
    it('a non-creator needs a write credential from the creator; a revoked one stops working', async () => {
      const owner = new TestIdentity();
      const writer = new TestIdentity();
      const post = owner.createContent({ title: 'shared' });
      await ingest(t, [owner.genesis, writer.genesis, post.jws]);
      const unauthorized = owner.updateContent(
        post.cid,
        { title: 'by writer' },
        { signer: writer.signer, did: writer.did },
      );
      const [refused] = await ingest(t, [unauthorized.jws]);
      expect(refused.status).toBe('rejected');
      expect(refused.error).toMatch(/not the chain creator/);

      const grant = owner.credential(writer.did, [{ resource: `chain:${post.contentId}`, action: 'write' }]);
      const delegated = owner.updateContent(
        post.cid,
        { title: 'delegated' },
        {
          signer: writer.signer,
          did: writer.did,
          authorization: grant.token,
        },
      );
      expect((await ingest(t, [delegated.jws]))[0].status).toBe('new');

      expect((await ingest(t, [owner.revoke(grant.cid).token]))[0]).toMatchObject({
        status: 'new',
        kind: 'revocation',
        chainId: owner.did,
      });
      const afterRevocation = owner.updateContent(
        delegated.cid,
        { title: 'revoked' },
        {
          signer: writer.signer,
          did: writer.did,
          authorization: grant.token,
        },
      );
      const [revoked] = await ingest(t, [afterRevocation.jws]);
      expect(revoked.status).toBe('rejected');
      expect(revoked.error).toMatch(/revoked/);
    });

    it('holds public credentials only', async () => {
      const issuer = new TestIdentity();
      await ingest(t, [issuer.genesis]);
      const targeted = issuer.credential(issuer.did, [{ resource: 'chain:*', action: 'read' }]);
      const publicRead = issuer.credential('*', [{ resource: 'chain:*', action: 'read' }]);
      const [a, b] = await ingest(t, [targeted.token, publicRead.token]);
      expect(a).toMatchObject({
        status: 'rejected',
        error: 'only public credentials (aud "*") are held by this relay',
      });
      expect(b).toMatchObject({
        status: 'new',
        kind: 'credential',
        chainId: issuer.did,
        cid: publicRead.cid,
      });
    });
  });

  describe('request bodies', () => {
    const post = (body: unknown) =>
      request(t.http)
        .post('/relay/proof/v1/operations')
        .send(body as object);

    it('more than 100 operations is a 400 in the relay error shape', async () => {
      const alice = new TestIdentity();
      const response = await post({ operations: Array.from({ length: 101 }, () => alice.genesis) });
      expect(response.status).toBe(400);
      expect(typeof response.body.error).toBe('string');
      expect(response.body.code).toBeUndefined();
      expect(response.body.details).toEqual(
        expect.arrayContaining([{ path: 'operations', message: 'a batch holds at most 100 operations' }]),
      );
      const hundred = await post({ operations: Array.from({ length: 100 }, () => alice.genesis) });
      expect(hundred.status).toBe(200);
      expect(hundred.body.results.map((r: { status: string }) => r.status)).toEqual([
        'new',
        ...Array.from({ length: 99 }, () => 'duplicate'),
      ]);
    });

    it('accepts exactly {operations}: other members, non-strings and empty batches are 400', async () => {
      const alice = new TestIdentity();
      for (const body of [
        { operations: [alice.genesis], extra: true },
        { operations: [42] },
        { operations: [] },
        { operations: alice.genesis },
        {},
      ]) {
        const response = await post(body);
        expect(response.status).toBe(400);
        expect(Object.keys(response.body).sort()).toEqual(expect.arrayContaining(['error']));
        expect(response.body.code).toBeUndefined();
      }
    });

    it('an op holding a NUL (U+0000) the database cannot store is rejected on its own, storing nothing', async () => {
      const alice = new TestIdentity(undefined, {
        services: [{ id: 'relay', type: 'PlatRelay', endpoint: 'https://relay.example/\u0000' }],
      });
      const bob = new TestIdentity();
      const response = await post({ operations: [alice.genesis, bob.genesis] });
      expect(response.status).toBe(200);
      expect(response.body.results[0]).toEqual({
        cid: alice.head,
        kind: 'identity-op',
        status: 'rejected',
        error: 'the operation holds a NUL (U+0000) character, which this relay cannot store',
      });
      expect(response.body.results[1]).toMatchObject({ cid: bob.head, status: 'new' });
      expect((await request(t.http).get(`/relay/proof/v1/identities/${alice.did}`)).status).toBe(404);
    });

    it('keys in the genesis: a genesis signed by a key outside its controller keys is rejected', async () => {
      const signer = generateKeySigner();
      const other = generateKeySigner();
      const bad = new TestIdentity(signer, {
        keys: { authKeys: [multikeyEntry(signer)], assertKeys: [], controllerKeys: [multikeyEntry(other)] },
      });
      const [result] = await ingest(t, [bad.genesis]);
      expect(result.status).toBe('rejected');
    });
  });
});
