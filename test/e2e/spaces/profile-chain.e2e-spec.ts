import { PROFILE_SCHEMA } from '../../../src/protocol/publishing/domain/content-publisher';
import { OriginIdentities } from '../../../src/protocol/publishing/domain/origin-identities';
import { bootApp, TestApp } from '../../support/app';
import {
  bootSpaces,
  Caller,
  createSpace,
  expectNotFound,
  expectStatus,
  publicSpace,
  SpacesTestApp,
} from './support';

interface ProtocolBlock {
  headOpCid: string;
  profile?: { contentId: string; headOpCid: string };
}

describe('space profile content chain (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Caller;

  beforeAll(async () => {
    t = await bootSpaces();
    owner = t.caller();
  });

  afterAll(async () => {
    await t.close();
  });

  const protocolOf = async (id: string): Promise<ProtocolBlock> => {
    const response = await t.anonymous.get(`/v1/spaces/${id}`);
    expectStatus(response, 200);
    return response.body.protocol;
  };
  const relayContent = (contentId: string) => t.anonymous.get(`/relay/proof/v1/content/${contentId}`);
  const blob = (contentId: string) => t.anonymous.get(`/relay/content/${contentId}/blob`);
  const storedChain = async (id: string) =>
    (
      await t.dataSource.query(
        'SELECT profile_content_id, profile_head_cid, profile_document_cid FROM spaces WHERE id = $1',
        [id.slice('space_'.length)],
      )
    )[0];

  /** The relay agrees with `protocol.profile`: same head, and the blob is the expected document. */
  async function expectPublished(profile: ProtocolBlock['profile'], document: Record<string, unknown>) {
    expect(profile).toEqual({ contentId: expect.any(String), headOpCid: expect.any(String) });
    const state = await relayContent(profile!.contentId);
    expectStatus(state, 200);
    expect(state.body.headCID).toBe(profile!.headOpCid);
    expect(state.body.state.isDeleted).toBe(false);
    const current = await blob(profile!.contentId);
    expectStatus(current, 200);
    expect(current.body).toEqual(document);
  }

  it('publishes the public projection while public, updates it on edits, retracts it when private', async () => {
    const { id, did } = await createSpace(owner, 'Makers');
    expect(await storedChain(id)).toEqual({
      profile_content_id: null,
      profile_head_cid: null,
      profile_document_cid: null,
    });

    expectStatus(await owner.put(`/spaces/${id}/public-config`, { isPublic: true, joinMode: 'open' }), 200);
    const first = await protocolOf(id);
    expect(first.headOpCid).toBe(await t.app.get(OriginIdentities).headOf(did));
    await expectPublished(first.profile, {
      $schema: PROFILE_SCHEMA,
      name: 'Makers',
      description: 'A place to make things',
    });

    // Profile edits append to the same chain.
    expectStatus(await owner.put(`/spaces/${id}`, { displayName: 'Makers Guild', description: null }), 200);
    const renamed = await protocolOf(id);
    expect(renamed.profile!.contentId).toBe(first.profile!.contentId);
    expect(renamed.profile!.headOpCid).not.toBe(first.profile!.headOpCid);
    await expectPublished(renamed.profile, { $schema: PROFILE_SCHEMA, name: 'Makers Guild' });

    expectStatus(
      await owner.put(`/spaces/${id}/site`, {
        links: [
          { url: 'https://guild.example', label: 'Home', description: 'Our site' },
          { url: 'https://guild.example/shop' },
        ],
      }),
      200,
    );
    const linked = await protocolOf(id);
    await expectPublished(linked.profile, {
      $schema: PROFILE_SCHEMA,
      name: 'Makers Guild',
      links: [
        { uri: 'https://guild.example', label: 'Home', description: 'Our site' },
        { uri: 'https://guild.example/shop' },
      ],
    });
    const log = await t.anonymous.get(`/relay/proof/v1/content/${linked.profile!.contentId}/log`);
    expectStatus(log, 200);

    // Changes outside the projection publish nothing.
    expectStatus(await owner.put(`/spaces/${id}/public-config`, { isPublic: true, joinMode: 'closed' }), 200);
    expectStatus(await owner.put(`/spaces/${id}/site`, { siteMode: 'posts', category: 'crafts' }), 200);
    expectStatus(await owner.put(`/spaces/${id}/domain`, { domain: 'guild' }), 200);
    expectStatus(await owner.put(`/spaces/${id}`, { displayName: 'Makers Guild' }), 200);
    expect(await protocolOf(id)).toEqual(linked);

    // Private: the chain gets a delete; the relay serves no document; the block is gone with the profile.
    expectStatus(
      await owner.put(`/spaces/${id}/public-config`, { isPublic: false, joinMode: 'closed' }),
      200,
    );
    expect(await storedChain(id)).toEqual({
      profile_content_id: null,
      profile_head_cid: null,
      profile_document_cid: null,
    });
    const retracted = await relayContent(linked.profile!.contentId);
    expect(retracted.body.state).toMatchObject({ isDeleted: true, currentDocumentCID: null });
    expectNotFound(await blob(linked.profile!.contentId));
    expectNotFound(await t.anonymous.get(`/v1/spaces/${id}`));
    // Edits while private publish nothing.
    expectStatus(await owner.put(`/spaces/${id}`, { displayName: 'Secret name' }), 200);
    expect((await storedChain(id)).profile_content_id).toBeNull();

    // Public again: a new chain with the current projection.
    expectStatus(await owner.put(`/spaces/${id}/public-config`, { isPublic: true, joinMode: 'closed' }), 200);
    const again = await protocolOf(id);
    expect(again.profile!.contentId).not.toBe(linked.profile!.contentId);
    await expectPublished(again.profile, {
      $schema: PROFILE_SCHEMA,
      name: 'Secret name',
      links: [
        { uri: 'https://guild.example', label: 'Home', description: 'Our site' },
        { uri: 'https://guild.example/shop' },
      ],
    });

    // Deleting the space retracts its profile.
    expectStatus(await owner.delete(`/spaces/${id}`), 204);
    expect((await relayContent(again.profile!.contentId)).body.state.isDeleted).toBe(true);
    expectNotFound(await blob(again.profile!.contentId));
  });

  it('keeps the stored head and the relay head the same under concurrent edits', async () => {
    const id = await publicSpace(owner);
    const names = Array.from({ length: 8 }, (_, i) => `Name ${i}`);
    const responses = await Promise.all(
      names.map((displayName) => owner.put(`/spaces/${id}`, { displayName })),
    );
    expect(responses.map((response) => response.status)).toEqual(names.map(() => 200));
    const final = (await owner.get(`/spaces/${id}`)).body.displayName;
    const { profile } = await protocolOf(id);
    await expectPublished(profile, {
      $schema: PROFILE_SCHEMA,
      name: final,
      description: 'A place to make things',
    });
    const toggles = await Promise.all(
      [true, false, true, false, true].map((isPublic) =>
        owner.put(`/spaces/${id}/public-config`, { isPublic, joinMode: 'closed' }),
      ),
    );
    expect(toggles.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    const isPublic = (await owner.get(`/spaces/${id}`)).body.isPublic;
    const stored = await storedChain(id);
    if (isPublic) {
      await expectPublished((await protocolOf(id)).profile, {
        $schema: PROFILE_SCHEMA,
        name: final,
        description: 'A place to make things',
      });
    } else {
      expect(stored.profile_content_id).toBeNull();
    }
  });

  it('has no protocol block for a space whose identity chain the relay does not know', async () => {
    const id = await publicSpace(owner);
    await t.dataSource.query(`UPDATE spaces SET did = 'did:plat:' || repeat('z', 31) WHERE id = $1`, [
      id.slice('space_'.length),
    ]);
    const space = (await t.anonymous.get(`/v1/spaces/${id}`)).body;
    expect(space).not.toHaveProperty('protocol');
    expect(space.did).toBe(`did:plat:${'z'.repeat(31)}`);
  });
});

describe('space profile content chain across replicas (e2e)', () => {
  let t: SpacesTestApp;
  let replica: TestApp;
  let owner: Caller;

  beforeAll(async () => {
    t = await bootSpaces();
    replica = await bootApp({ databaseUrl: t.databaseUrl });
    owner = t.caller();
  });

  afterAll(async () => {
    await replica.close();
    await t.close();
  });

  const liveChains = async (): Promise<number> =>
    Number(
      (
        await t.dataSource.query('SELECT count(*)::int AS n FROM relay_content_chains WHERE NOT is_deleted')
      )[0].n,
    );

  it('ends with one live chain whose relay head is the stored head when replicas race', async () => {
    const { id } = await createSpace(owner, 'Race');
    const elsewhere = owner.on(replica);
    const live = await liveChains();
    // Both replicas make the profile public at once (two chains may start; one must be retracted) ...
    const openings = await Promise.all(
      [owner, elsewhere, owner, elsewhere].map((caller) =>
        caller.put(`/spaces/${id}/public-config`, { isPublic: true, joinMode: 'closed' }),
      ),
    );
    expect(openings.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    // ... then both rename it at once.
    const names = Array.from({ length: 8 }, (_, i) => `Race ${i}`);
    const renames = await Promise.all(
      names.map((displayName, i) => (i % 2 ? elsewhere : owner).put(`/spaces/${id}`, { displayName })),
    );
    expect(renames.map((response) => response.status)).toEqual(names.map(() => 200));

    const space = (await t.anonymous.get(`/v1/spaces/${id}`)).body;
    const profile = space.protocol.profile;
    const state = await t.anonymous.get(`/relay/proof/v1/content/${profile.contentId}`);
    expect(state.body.headCID).toBe(profile.headOpCid);
    expect((await t.anonymous.get(`/relay/content/${profile.contentId}/blob`)).body).toEqual({
      $schema: PROFILE_SCHEMA,
      name: space.displayName,
      description: 'A place to make things',
    });
    expect(await liveChains()).toBe(live + 1);
  });
});
