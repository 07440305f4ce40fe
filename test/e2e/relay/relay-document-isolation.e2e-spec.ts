import request from 'supertest';
import { contentIdFromGenesisCid, signContentOperation } from '../../../src/protocol/core';
import { OriginIdentityService } from '../../../src/protocol/relay/services/origin-identity.service';
import { Actor } from '../../support/actors';
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
} from '../posts/support';
import { createdAt, expectConstantNotFound, ingest, TestIdentity } from './support';

const PROFILE = 'https://schemas.dfos.com/profile/v1';
const POST = 'https://schemas.dfos.com/post/v1';

/**
 * A relay document is served only through the chain that stored it, and the
 * documents of a deleted, retracted or superseded head are served by no one
 * (docs/decisions/0120-relay-documents-per-chain.md).
 */
describe('relay documents are tied to their chain (e2e)', () => {
  let t: SpacesTestApp;
  let origin: OriginIdentityService;
  let attacker: TestIdentity;
  const get = (path: string) => request(t.http).get(path);

  beforeAll(async () => {
    t = await bootSpaces();
    origin = t.app.get(OriginIdentityService);
    attacker = new TestIdentity();
    await ingest(t, [attacker.genesis]);
  });

  afterAll(() => t?.close());

  /** The attacker's own chain whose genesis commits to a document CID read from another chain. */
  async function chainClaiming(documentCID: string): Promise<string> {
    const genesis = signContentOperation(
      { version: 1, type: 'create', did: attacker.did, documentCID, createdAt: createdAt() },
      attacker.signer,
    );
    const [result] = await ingest(t, [genesis.jws]);
    expect(result.status).toBe('new');
    return contentIdFromGenesisCid(genesis.cid);
  }

  const currentDocumentCid = async (contentId: string): Promise<string> => {
    const response = await get(`/relay/proof/v1/content/${contentId}`);
    expectStatus(response, 200);
    return response.body.state.currentDocumentCID as string;
  };

  const heldDocuments = async (documentCids: string[]): Promise<number> => {
    const [row] = (await t.dataSource.query(
      'SELECT count(*)::int AS count FROM relay_documents WHERE document_cid = ANY($1::varchar[])',
      [documentCids],
    )) as { count: number }[];
    return row.count;
  };

  /** Nothing of the stolen document leaks through the attacker's chain: blob, index row, search. */
  async function expectNothingServed(contentId: string, title: string): Promise<void> {
    expectConstantNotFound(await get(`/relay/content/${contentId}/blob`));
    const row = await get(`/relay/index/v0/content?contentId=${contentId}`);
    expectStatus(row, 200);
    expect(row.body.content).toEqual([
      expect.objectContaining({ contentId, publicRead: false, docSchema: null, title: null }),
    ]);
    const search = await get(`/relay/index/v0/content?titleContains=${encodeURIComponent(title)}`);
    expect(search.body.content).toEqual([]);
  }

  describe('attack: a genesis claiming another chain’s document CID, then its blob', () => {
    let owner: Actor;
    let member: Actor;
    let spaceId: string;
    let publicTopic: string;
    let membersTopic: string;

    beforeAll(async () => {
      [owner, member] = await Promise.all([person(t), person(t)]);
      spaceId = (await newSpace(owner, 'Isolation')).id;
      await makePublic(owner, spaceId);
      await admit(owner, spaceId, member);
      publicTopic = await newTopic(owner, spaceId, 'Open', 'public');
      membersTopic = await newTopic(owner, spaceId, 'Members', 'members');
    });

    it('a deleted post’s document: the constant 404, and the relay no longer holds it', async () => {
      const post = await newPost(member, spaceId, { topic: publicTopic, title: 'Deleted secret', body: 'x' });
      const { contentId } = post.protocol as { contentId: string };
      const documentCID = await currentDocumentCid(contentId);
      expectStatus(await member.delete(`/v1/spaces/${spaceId}/posts/${post.id}`), 200);

      expectConstantNotFound(await get(`/relay/content/${contentId}/blob`));
      await expectNothingServed(await chainClaiming(documentCID), 'Deleted secret');
      expect(await heldDocuments([documentCID])).toBe(0);
    });

    it('the earlier version of an edited post: the constant 404; the post serves only its head', async () => {
      const post = await newPost(member, spaceId, { topic: publicTopic, title: 'First draft', body: 'v1' });
      const { contentId } = post.protocol as { contentId: string };
      const firstVersion = await currentDocumentCid(contentId);
      const path = `/v1/spaces/${spaceId}/posts/${post.id}`;
      expectStatus(await member.patch(path, { title: 'Second draft', body: 'v2' }), 200);

      const blob = await get(`/relay/content/${contentId}/blob`);
      expectStatus(blob, 200);
      expect(blob.body).toMatchObject({ title: 'Second draft', body: 'v2' });
      await expectNothingServed(await chainClaiming(firstVersion), 'First draft');
      expect(await heldDocuments([firstVersion])).toBe(0);
    });

    it('a post moved to a members-only topic: the constant 404', async () => {
      const post = await newPost(member, spaceId, { topic: publicTopic, title: 'Moving secret', body: 'm' });
      const { contentId } = post.protocol as { contentId: string };
      const documentCID = await currentDocumentCid(contentId);
      expectStatus(
        await member.patch(`/v1/spaces/${spaceId}/posts/${post.id}`, { topic: membersTopic }),
        200,
      );

      await expectNothingServed(await chainClaiming(documentCID), 'Moving secret');
      expect(await heldDocuments([documentCID])).toBe(0);
    });

    it('a profile that went private: no blob, no name on an identity anchoring the claiming chain', async () => {
      const profile = await origin.publishContent({ $schema: PROFILE, name: 'Private Person' });
      const documentCID = await currentDocumentCid(profile.contentId);
      await origin.retract(profile);

      const claiming = await chainClaiming(documentCID);
      expectConstantNotFound(await get(`/relay/content/${claiming}/blob`));
      const anchored = new TestIdentity(undefined, {
        services: [{ id: 'profile', type: 'ContentAnchor', label: 'profile', anchor: claiming }],
      });
      await ingest(t, [anchored.genesis]);
      const row = await get(`/relay/index/v0/identities?did=${anchored.did}`);
      expect(row.body.identities[0].profile).toEqual({
        anchor: claiming,
        publicRead: false,
        docSchema: null,
        name: null,
      });
      expect((await get('/relay/index/v0/identities?nameContains=private%20person')).body.identities).toEqual(
        [],
      );
    });

    it('a live public document: still served only through its own chain', async () => {
      const document = { $schema: POST, title: 'Live and public', body: 'l' };
      const published = await origin.publishContent(document);
      const documentCID = await currentDocumentCid(published.contentId);
      expect((await get(`/relay/content/${published.contentId}/blob`)).body).toEqual(document);
      await expectNothingServed(await chainClaiming(documentCID), 'zzz-no-such-title');
    });
  });

  describe('what a chain keeps', () => {
    it('one document committed by two chains is held for each; retracting one leaves the other serving', async () => {
      const document = { $schema: POST, title: 'Twice', body: 'same bytes' };
      const first = await origin.publishContent(document);
      const second = await origin.publishContent(document);
      expect(second.contentId).not.toBe(first.contentId);
      await origin.retract(first);
      expectConstantNotFound(await get(`/relay/content/${first.contentId}/blob`));
      expect((await get(`/relay/content/${second.contentId}/blob`)).body).toEqual(document);
    });

    it('holds only the head document of a chain: an update drops the one it supersedes', async () => {
      const first = await origin.publishContent({ $schema: POST, title: 'One', body: '1' });
      const second = await origin.publishContent({ $schema: POST, title: 'Two', body: '2' }, first);
      await origin.publishContent({ $schema: POST, title: 'Three', body: '3' }, second);
      const rows = (await t.dataSource.query(
        'SELECT document->>$2 AS title FROM relay_documents WHERE content_id = $1',
        [first.contentId, 'title'],
      )) as { title: string }[];
      expect(rows).toEqual([{ title: 'Three' }]);
    });
  });
});
