import request from 'supertest';
import { generateKeySigner, signContentOperation } from '../../../src/protocol/core';
import { OriginIdentityService } from '../../../src/protocol/relay/services/origin-identity.service';
import { TestApp } from '../../support/app';
import { allRoles, bootRelayApp, createdAt, expectConstantNotFound, ingest, TestIdentity } from './support';

describe('relay reads (e2e)', () => {
  let t: TestApp;
  const get = (path: string) => request(t.http).get(path);

  beforeAll(async () => {
    t = await bootRelayApp();
  });

  afterAll(async () => {
    await t.close();
  });

  describe('identity state and log', () => {
    it('serves the folded state and the log, genesis first, with relay-local cursors', async () => {
      const second = generateKeySigner();
      const alice = new TestIdentity(undefined, {
        services: [{ id: 'relay', type: 'PlatRelay', endpoint: 'https://relay.example' }],
      });
      const update = alice.update(
        {
          authKeys: allRoles(second).authKeys,
          assertKeys: [],
          controllerKeys: allRoles(alice.signer).controllerKeys,
        },
        { services: [] },
      );
      await ingest(t, [alice.genesis, update.jws]);

      const state = await get(`/relay/proof/v1/identities/${alice.did}`);
      expect(state.status).toBe(200);
      expect(state.body).toEqual({
        did: alice.did,
        headCID: update.cid,
        state: {
          did: alice.did,
          isDeleted: false,
          authKeys: allRoles(second).authKeys,
          assertKeys: [],
          controllerKeys: allRoles(alice.signer).controllerKeys,
          services: [],
        },
      });

      const log = await get(`/relay/proof/v1/identities/${alice.did}/log`);
      expect(log.body).toEqual({
        entries: [
          { cid: expect.any(String), jwsToken: alice.genesis },
          { cid: update.cid, jwsToken: update.jws },
        ],
        next: null,
      });
      const page1 = await get(`/relay/proof/v1/identities/${alice.did}/log?limit=1`);
      expect(page1.body.entries).toHaveLength(1);
      expect(page1.body.next).toBe(page1.body.entries[0].cid);
      const page2 = await get(`/relay/proof/v1/identities/${alice.did}/log?limit=1&after=${page1.body.next}`);
      expect(page2.body.entries).toEqual([{ cid: update.cid, jwsToken: update.jws }]);
      expect(page2.body.next).toBe(update.cid);
      const page3 = await get(`/relay/proof/v1/identities/${alice.did}/log?limit=1&after=${update.cid}`);
      expect(page3.body).toEqual({ entries: [], next: null });
    });

    it('refuses a cursor it did not issue for this chain (400 {error}), and bad limits', async () => {
      const bob = new TestIdentity();
      const carol = new TestIdentity();
      await ingest(t, [bob.genesis, carol.genesis]);
      for (const after of [carol.head, 'bafyreinotacid', 'x']) {
        const response = await get(`/relay/proof/v1/identities/${bob.did}/log?after=${after}`);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: 'unknown cursor' });
      }
      for (const limit of ['0', '-1', '1.5', 'ten']) {
        const response = await get(`/relay/proof/v1/identities/${bob.did}/log?limit=${limit}`);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: 'limit must be a positive integer' });
      }
      const clamped = await get(`/relay/proof/v1/identities/${bob.did}/log?limit=5000`);
      expect(clamped.status).toBe(200);
      const unknownParameter = await get(`/relay/proof/v1/identities/${bob.did}/log?foo=1`);
      expect(unknownParameter.status).toBe(400);
      expect(typeof unknownParameter.body.error).toBe('string');
    });
  });

  describe('the constant 404', () => {
    it('answers unknown and malformed ids with the service’s 404 bytes', async () => {
      const dave = new TestIdentity();
      const unknownDid = dave.did; // never ingested
      const unknownCid = dave.head;
      const unknownContentId = dave.createContent({ a: 1 }).contentId;
      const paths = [
        `/relay/proof/v1/identities/${unknownDid}`,
        `/relay/proof/v1/identities/${unknownDid}/log`,
        '/relay/proof/v1/identities/did:plat:short',
        '/relay/proof/v1/identities/did:dfos:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
        '/relay/proof/v1/identities/not-a-did/log',
        `/relay/proof/v1/operations/${unknownCid}`,
        '/relay/proof/v1/operations/bafyrei',
        '/relay/proof/v1/operations/QmNotDagCbor',
        `/relay/proof/v1/countersignatures/${unknownCid}`,
        `/relay/proof/v1/content/${unknownContentId}`,
        `/relay/proof/v1/content/${unknownContentId}/log`,
        '/relay/proof/v1/content/UPPERCASE/log',
        `/relay/content/${unknownContentId}/blob`,
        '/relay/content/nope/blob',
      ];
      for (const path of paths) expectConstantNotFound(await get(path));
    });
  });

  describe('content chains', () => {
    it('selects the head after a fork by createdAt, then CID, and logs every branch', async () => {
      const erin = new TestIdentity();
      const genesis = erin.createContent({ title: 'root' });
      await ingest(t, [erin.genesis, genesis.jws]);
      const early = createdAt();
      const late = createdAt();
      const branchLate = erin.updateContent(genesis.cid, { title: 'late' }, { createdAt: late });
      const branchEarly = erin.updateContent(genesis.cid, { title: 'early' }, { createdAt: early });
      // Ingest the later-dated branch first: head selection must not depend on ingestion order.
      expect((await ingest(t, [branchLate.jws])).map((r) => r.status)).toEqual(['new']);
      expect((await ingest(t, [branchEarly.jws])).map((r) => r.status)).toEqual(['new']);

      const state = await get(`/relay/proof/v1/content/${genesis.contentId}`);
      expect(state.status).toBe(200);
      expect(state.body).toEqual({
        contentId: genesis.contentId,
        genesisCID: genesis.cid,
        headCID: branchLate.cid,
        state: {
          contentId: genesis.contentId,
          genesisCID: genesis.cid,
          headCID: branchLate.cid,
          isDeleted: false,
          currentDocumentCID: expect.stringMatching(/^bafyrei/),
          length: 3,
          creatorDID: erin.did,
        },
      });

      // Extending the older branch past the other one's createdAt moves the head there.
      const extension = erin.updateContent(branchEarly.cid, { title: 'early, continued' });
      await ingest(t, [extension.jws]);
      const moved = await get(`/relay/proof/v1/content/${genesis.contentId}`);
      expect(moved.body.headCID).toBe(extension.cid);
      expect(moved.body.state.length).toBe(4);

      const log = await get(`/relay/proof/v1/content/${genesis.contentId}/log`);
      expect(log.body.entries.map((entry: { cid: string }) => entry.cid)).toEqual([
        genesis.cid,
        branchLate.cid,
        branchEarly.cid,
        extension.cid,
      ]);
      const operation = await get(`/relay/proof/v1/operations/${branchEarly.cid}`);
      expect(operation.body).toEqual({
        cid: branchEarly.cid,
        jwsToken: branchEarly.jws,
        kind: 'content-op',
        chainId: genesis.contentId,
      });
    });

    it('a deleted head makes the chain deleted; a later fork from before the delete revives it', async () => {
      const frank = new TestIdentity();
      const genesis = frank.createContent({ title: 'x' });
      await ingest(t, [frank.genesis, genesis.jws]);
      const deletion = signContentOperation(
        {
          version: 1,
          type: 'delete',
          did: frank.did,
          previousOperationCID: genesis.cid,
          createdAt: createdAt(),
        },
        frank.signer,
      );
      await ingest(t, [deletion.jws]);
      expect((await get(`/relay/proof/v1/content/${genesis.contentId}`)).body.state).toMatchObject({
        isDeleted: true,
        currentDocumentCID: null,
      });
      const afterDelete = frank.updateContent(deletion.cid, { title: 'y' });
      expect((await ingest(t, [afterDelete.jws]))[0].status).toBe('rejected');
      const revival = frank.updateContent(genesis.cid, { title: 'fork' });
      expect((await ingest(t, [revival.jws]))[0].status).toBe('new');
      expect((await get(`/relay/proof/v1/content/${genesis.contentId}`)).body).toMatchObject({
        headCID: revival.cid,
        state: { isDeleted: false },
      });
    });
  });

  describe('blobs', () => {
    it('serves the current document of public content, and 404 once it is retracted', async () => {
      const origin = t.app.get(OriginIdentityService);
      const document = { $schema: 'https://schemas.dfos.com/post/v1', title: 'Hello', body: 'world' };
      const published = await origin.publishContent(document);
      const blob = await get(`/relay/content/${published.contentId}/blob`);
      expect(blob.status).toBe(200);
      expect(blob.body).toEqual(document);

      const updated = await origin.publishContent({ ...document, title: 'Hello again' }, published);
      expect(updated.contentId).toBe(published.contentId);
      expect((await get(`/relay/content/${published.contentId}/blob`)).body.title).toBe('Hello again');

      await origin.retract(updated);
      expectConstantNotFound(await get(`/relay/content/${published.contentId}/blob`));
      expect((await get(`/relay/proof/v1/content/${published.contentId}`)).body.state.isDeleted).toBe(true);
    });

    it('a chain whose document the relay does not hold has no blob', async () => {
      const grace = new TestIdentity();
      const post = grace.createContent({ title: 'private bytes' });
      await ingest(t, [grace.genesis, post.jws]);
      expect((await get(`/relay/proof/v1/content/${post.contentId}`)).status).toBe(200);
      expectConstantNotFound(await get(`/relay/content/${post.contentId}/blob`));
    });
  });

  describe('revocation status', () => {
    it('is false before and true (with the revocation JWS) after a revocation', async () => {
      const heidi = new TestIdentity();
      await ingest(t, [heidi.genesis]);
      const credential = heidi.credential(heidi.did, [{ resource: 'chain:*', action: 'read' }]);
      const before = await get(`/relay/revocations/v1/credential/${credential.cid}`);
      expect(before.status).toBe(200);
      expect(before.body).toEqual({ credentialCID: credential.cid, revoked: false });

      const revocation = heidi.revoke(credential.cid);
      await ingest(t, [revocation.token]);
      const after = await get(`/relay/revocations/v1/credential/${credential.cid}`);
      expect(after.body).toEqual({
        credentialCID: credential.cid,
        revoked: true,
        revocation: revocation.token,
      });

      const byIssuer = await get(`/relay/revocations/v1/issuer/${heidi.did}`);
      expect(byIssuer.body).toEqual({
        did: heidi.did,
        revocations: [{ credentialCID: credential.cid, revocation: revocation.token }],
        next: null,
      });
    });

    it('a malformed credential CID or issuer DID is a 400 {error} (WEB-RELAY.md)', async () => {
      const cid = await get('/relay/revocations/v1/credential/not-a-cid');
      expect(cid.status).toBe(400);
      expect(cid.body).toEqual({ error: 'not a well-formed credential CID' });
      const did = await get('/relay/revocations/v1/issuer/did:plat:nope');
      expect(did.status).toBe(400);
      expect(did.body).toEqual({ error: 'not a canonical did:plat identifier' });
    });
  });

  describe('global log', () => {
    it('lists every kind in ingestion order with kind and chainId', async () => {
      const ivan = new TestIdentity();
      const post = ivan.createContent({ title: 'log' });
      await ingest(t, [ivan.genesis, post.jws]);
      let after: string | undefined;
      const entries: { cid: string; kind: string; chainId: string }[] = [];
      for (let guard = 0; guard < 1000; guard++) {
        const page = await get(`/relay/proof/v1/log?limit=7${after ? `&after=${after}` : ''}`);
        expect(page.status).toBe(200);
        entries.push(...page.body.entries);
        if (!page.body.next) break;
        after = page.body.next;
      }
      const mine = entries.filter((entry) => entry.chainId === ivan.did || entry.chainId === post.contentId);
      expect(mine).toEqual([
        { cid: ivan.head, jwsToken: ivan.genesis, kind: 'identity-op', chainId: ivan.did },
        { cid: post.cid, jwsToken: post.jws, kind: 'content-op', chainId: post.contentId },
      ]);
      expect(new Set(entries.map((entry) => entry.cid)).size).toBe(entries.length);
      expect((await get('/relay/proof/v1/log?after=bafyreiunknown')).status).toBe(400);
    });
  });
});
