import request from 'supertest';
import { OriginIdentityService } from '../../../src/protocol/relay/services/origin-identity.service';
import { TestApp } from '../../support/app';
import { bootRelayApp, ingest, TestIdentity } from './support';

const PROFILE = 'https://schemas.dfos.com/profile/v1';
const POST = 'https://schemas.dfos.com/post/v1';

describe('relay index v0 (e2e)', () => {
  let t: TestApp;
  let origin: OriginIdentityService;
  const get = (path: string) => request(t.http).get(path);

  beforeAll(async () => {
    t = await bootRelayApp();
    origin = t.app.get(OriginIdentityService);
  });

  afterAll(async () => {
    await t.close();
  });

  describe('identities', () => {
    it('projects a public profile anchor: name only while the relay serves the document', async () => {
      const profile = await origin.publishContent({ $schema: PROFILE, name: 'Asha Example' });
      const anchored = new TestIdentity(undefined, {
        services: [
          { id: 'z-profile', type: 'ContentAnchor', label: 'Profile', anchor: profile.contentId },
          { id: 'a-profile', type: 'ContentAnchor', label: 'profile', anchor: profile.contentId },
        ],
      });
      const plain = new TestIdentity();
      await ingest(t, [anchored.genesis, plain.genesis]);

      const row = await get(`/relay/index/v0/identities?did=${anchored.did}`);
      expect(row.status).toBe(200);
      expect(row.body).toEqual({
        identities: [
          {
            did: anchored.did,
            headCID: anchored.head,
            opCount: 1,
            genesisAt: expect.any(String),
            headAt: expect.any(String),
            isDeleted: false,
            profile: {
              anchor: profile.contentId,
              publicRead: true,
              docSchema: PROFILE,
              name: 'Asha Example',
            },
          },
        ],
        next: null,
      });
      expect(
        (await get(`/relay/index/v0/identities?did=${plain.did}`)).body.identities[0].profile,
      ).toBeNull();

      const byName = await get('/relay/index/v0/identities?nameContains=asha%20EX');
      expect(byName.body.identities.map((identity: { did: string }) => identity.did)).toEqual([anchored.did]);
      const withProfile = await get('/relay/index/v0/identities?hasPublicProfile=true');
      const dids = withProfile.body.identities.map((identity: { did: string }) => identity.did);
      expect(dids).toContain(anchored.did);
      expect(dids).not.toContain(plain.did);

      await origin.retract(profile);
      const retracted = await get(`/relay/index/v0/identities?did=${anchored.did}`);
      expect(retracted.body.identities[0].profile).toEqual({
        anchor: profile.contentId,
        publicRead: false,
        docSchema: null,
        name: null,
      });
      expect((await get('/relay/index/v0/identities?nameContains=asha')).body.identities).toEqual([]);
    });

    it('pages lexically by DID (strictly greater, foreign cursors welcome) and by time with opaque cursors', async () => {
      const made = Array.from({ length: 5 }, () => new TestIdentity());
      await ingest(
        t,
        made.map((identity) => identity.genesis),
      );
      const walk = async (query: string) => {
        const seen: string[] = [];
        let after: string | null = null;
        for (let guard = 0; guard < 100; guard++) {
          const page: request.Response = await get(
            `/relay/index/v0/identities?limit=2${query}${after ? `&after=${encodeURIComponent(after)}` : ''}`,
          );
          expect(page.status).toBe(200);
          seen.push(...page.body.identities.map((identity: { did: string }) => identity.did));
          after = page.body.next;
          if (!after) return seen;
        }
        throw new Error('did not end');
      };
      const lexical = await walk('');
      expect(lexical).toEqual([...lexical].sort());
      for (const identity of made) expect(lexical).toContain(identity.did);
      const byGenesis = await walk('&order=genesisAt.desc');
      expect(new Set(byGenesis)).toEqual(new Set(lexical));
      // The five were created in this order, each a second after the other: newest first.
      const ours = byGenesis.filter((did) => made.some((identity) => identity.did === did));
      expect(ours).toEqual(made.map((identity) => identity.did).reverse());

      const foreign = await get(
        `/relay/index/v0/identities?after=${encodeURIComponent('did:plat:')}&limit=1`,
      );
      expect(foreign.body.identities[0].did).toBe(lexical[0]);
      const forged = await get('/relay/index/v0/identities?order=headAt.desc&after=bm90LWEtY3Vyc29y.xyz');
      expect(forged.status).toBe(400);
      expect(typeof forged.body.error).toBe('string');
    });

    it('refuses invalid booleans and orders', async () => {
      for (const query of ['hasPublicProfile=', 'hasPublicProfile=yes', 'order=createdAt.desc', 'limit=0']) {
        const response = await get(`/relay/index/v0/identities?${query}`);
        expect(response.status).toBe(400);
        expect(typeof response.body.error).toBe('string');
      }
      expect((await get('/relay/index/v0/identities?hasPublicProfile=')).body).toEqual({
        error: 'invalid boolean',
      });
    });

    it('refuses a query value holding NUL (U+0000) with 400 on every relay list route', async () => {
      const paths = [
        ...['did', 'nameContains', 'after'].map((name) => `/relay/index/v0/identities?${name}=a%00`),
        ...['contentId', 'docSchema', 'documentCID', 'titleContains', 'after'].map(
          (name) => `/relay/index/v0/content?${name}=a%00&publicRead=true`,
        ),
        '/relay/proof/v1/log?after=a%00',
        '/relay/revocations/v1/issuer/did:plat:2222222222222222222222222222222?after=a%00',
      ];
      for (const path of paths) {
        const response = await get(path);
        expect({ path, status: response.status, error: typeof response.body.error }).toEqual({
          path,
          status: 400,
          error: 'string',
        });
      }
    });
  });

  describe('content', () => {
    it('filters by creator, signer, schema, document, publicRead, deletion and title', async () => {
      const post = await origin.publishContent({ $schema: POST, title: 'Launch Notes' });
      const other = await origin.publishContent({ $schema: PROFILE, name: 'not a post' });
      const writer = new TestIdentity();
      const theirs = writer.createContent({ $schema: POST, title: 'bytes not held' });
      await ingest(t, [writer.genesis, theirs.jws]);

      const row = await get(`/relay/index/v0/content?contentId=${post.contentId}`);
      expect(row.body.content).toEqual([
        {
          contentId: post.contentId,
          genesisCID: post.headCid,
          headCID: post.headCid,
          creatorDID: origin.did,
          isDeleted: false,
          opCount: 1,
          genesisAt: expect.any(String),
          headAt: expect.any(String),
          currentDocumentCID: expect.stringMatching(/^bafyrei/),
          publicRead: true,
          docSchema: POST,
          title: 'Launch Notes',
        },
      ]);
      const ids = async (query: string) =>
        (await get(`/relay/index/v0/content?${query}`)).body.content.map(
          (c: { contentId: string }) => c.contentId,
        );

      expect(await ids(`creator=${writer.did}`)).toEqual([theirs.contentId]);
      expect(await ids(`signer=${writer.did}`)).toEqual([theirs.contentId]);
      expect(await ids(`creator=${origin.did}&docSchema=${encodeURIComponent(POST)}`)).toContain(
        post.contentId,
      );
      expect(await ids(`creator=${origin.did}&docSchema=${encodeURIComponent(POST)}`)).not.toContain(
        other.contentId,
      );
      expect(await ids(`contentId=${theirs.contentId}&publicRead=false`)).toEqual([theirs.contentId]);
      expect(await ids(`contentId=${theirs.contentId}&publicRead=true`)).toEqual([]);
      expect(await ids('titleContains=launch%20n')).toEqual([post.contentId]);
      expect(await ids('titleContains=bytes')).toEqual([]);
      const documentCID = row.body.content[0].currentDocumentCID as string;
      expect(await ids(`documentCID=${documentCID}`)).toEqual([post.contentId]);

      await origin.retract(post);
      expect(await ids(`contentId=${post.contentId}&isDeleted=true`)).toEqual([post.contentId]);
      expect(await ids(`contentId=${post.contentId}&isDeleted=false`)).toEqual([]);
      const deleted = await get(`/relay/index/v0/content?contentId=${post.contentId}`);
      expect(deleted.body.content[0]).toMatchObject({
        opCount: 2,
        publicRead: false,
        title: null,
        docSchema: null,
      });
    });

    it('refuses malformed DIDs, invalid booleans and titleContains with publicRead=false', async () => {
      const cases: [string, string][] = [
        ['creator=did:plat:x', 'creator must be a did:plat DID'],
        ['signer=someone', 'signer must be a did:plat DID'],
        ['publicRead=1', 'invalid boolean'],
        ['isDeleted=TRUE', 'invalid boolean'],
        ['titleContains=a&publicRead=false', 'invalid filter combination'],
      ];
      for (const [query, error] of cases) {
        const response = await get(`/relay/index/v0/content?${query}`);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error });
      }
    });

    it('orders by headAt.desc with a resumable opaque cursor', async () => {
      const a = await origin.publishContent({ title: 'a' });
      const b = await origin.publishContent({ title: 'b' });
      await origin.publishContent({ title: 'a, later' }, a);
      const first = await get(`/relay/index/v0/content?creator=${origin.did}&order=headAt.desc&limit=1`);
      expect(first.body.content[0].contentId).toBe(a.contentId);
      const second = await get(
        `/relay/index/v0/content?creator=${origin.did}&order=headAt.desc&limit=1&after=${encodeURIComponent(first.body.next)}`,
      );
      expect(second.body.content[0].contentId).toBe(b.contentId);
      // A cursor of one listing is refused by another.
      const crossed = await get(
        `/relay/index/v0/identities?order=headAt.desc&after=${encodeURIComponent(first.body.next)}`,
      );
      expect(crossed.status).toBe(400);
    });
  });
});
