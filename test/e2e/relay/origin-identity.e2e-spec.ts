import request from 'supertest';
import { DataSource } from 'typeorm';
import { base64urlEncode, createKeySigner, generateKeySigner } from '../../../src/protocol/core';
import { ContentPublisher } from '../../../src/protocol/publishing/domain/content-publisher';
import { OriginIdentities } from '../../../src/protocol/publishing/domain/origin-identities';
import { Clock } from '../../../src/common/clock/clock';
import { IdentityCacheBusService } from '../../../src/protocol/relay/services/identity-cache-bus.service';
import { IdentityStateService } from '../../../src/protocol/relay/services/identity-state.service';
import { OriginChainGenesisService } from '../../../src/protocol/relay/services/origin-chain-genesis.service';
import { OriginIdentityService } from '../../../src/protocol/relay/services/origin-identity.service';
import { RelayIngestService } from '../../../src/protocol/relay/services/relay-ingest.service';
import { TestApp } from '../../support/app';
import { createMigratedTestDatabase } from '../../support/database';
import { bootRelayApp } from './support';

const originOf = (t: TestApp) => t.app.get(OriginIdentityService);

describe('origin identity (e2e)', () => {
  it('exists after boot, with PlatOrigin and PlatRelay entries, and survives a restart', async () => {
    const database = await createMigratedTestDatabase();
    try {
      const first = await bootRelayApp({ databaseUrl: database.url });
      const did = originOf(first).did;
      const state = await request(first.http).get(`/relay/proof/v1/identities/${did}`);
      expect(state.status).toBe(200);
      expect(state.body.state.services).toEqual([
        { id: 'origin', type: 'PlatOrigin', endpoint: 'http://api.plat.test' },
        { id: 'relay', type: 'PlatRelay', endpoint: 'http://api.plat.test/relay' },
      ]);
      const key = originOf(first).signer.multikey;
      expect(
        state.body.state.controllerKeys.map((k: { publicKeyMultibase: string }) => k.publicKeyMultibase),
      ).toEqual([key]);
      await first.app.close();

      const second = await bootRelayApp({ databaseUrl: database.url });
      expect(originOf(second).did).toBe(did);
      expect(originOf(second).signer.multikey).toBe(key);
      const log = await request(second.http).get(`/relay/proof/v1/identities/${did}/log`);
      expect(log.body.entries).toHaveLength(1);
      await second.app.close();

      // A changed relay URL is published as a controller-signed update of the services.
      const third = await bootRelayApp({
        databaseUrl: database.url,
        env: { RELAY_URL: 'https://relay.example.net' },
      });
      expect(originOf(third).did).toBe(did);
      const updated = await request(third.http).get(`/relay/proof/v1/identities/${did}`);
      expect(updated.body.state.services[1]).toEqual({
        id: 'relay',
        type: 'PlatRelay',
        endpoint: 'https://relay.example.net',
      });
      expect(
        (await request(third.http).get(`/relay/proof/v1/identities/${did}/log`)).body.entries,
      ).toHaveLength(2);
      await third.app.close();
    } finally {
      await database.drop();
    }
  });

  it('replicas starting together create one origin identity', async () => {
    const database = await createMigratedTestDatabase();
    try {
      const replicas = await Promise.all([0, 1, 2].map(() => bootRelayApp({ databaseUrl: database.url })));
      const dids = replicas.map((replica) => originOf(replica).did);
      expect(new Set(dids).size).toBe(1);
      const rows = await replicas[0].app
        .get(DataSource)
        .query(`SELECT count(*)::int AS n FROM relay_origin_keys`);
      expect(rows[0].n).toBe(1);
      const geneses = await replicas[0].app
        .get(DataSource)
        .query(`SELECT count(*)::int AS n FROM relay_identity_chains`);
      expect(geneses[0].n).toBe(1);
      await Promise.all(replicas.map((replica) => replica.app.close()));
    } finally {
      await database.drop();
    }
  });

  describe('booted with ORIGIN_KEY', () => {
    // One app for these: none of them changes the origin key (the boots above test boots).
    const seed = generateKeySigner().privateKey;
    let t: TestApp;

    beforeAll(async () => {
      t = await bootRelayApp({ env: { ORIGIN_KEY: base64urlEncode(seed) } });
    });

    afterAll(() => t?.close());

    it('uses ORIGIN_KEY when set and never stores it', async () => {
      const origin = originOf(t);
      expect(origin.signer.multikey).toBe(createKeySigner(seed).multikey);
      const rows = await t.app.get(DataSource).query(`SELECT seed FROM relay_origin_keys`);
      expect(rows).toEqual([{ seed: null }]);
    });

    it('refuses to generate an origin key in production', async () => {
      // Booted with ORIGIN_KEY, so no generated key is stored; a production replica without one must stop.
      const production = Object.assign(Object.create(Object.getPrototypeOf(t.config)), t.config, {
        NODE_ENV: 'production',
        ORIGIN_KEY: undefined,
      });
      const replica = new OriginIdentityService(
        t.app.get(DataSource),
        production,
        t.app.get(Clock),
        t.app.get(RelayIngestService),
        t.app.get(IdentityStateService),
        t.app.get(IdentityCacheBusService),
      );
      await expect(replica.onModuleInit()).rejects.toThrow(/ORIGIN_KEY is required in production/);
      const rows = await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM relay_origin_keys`);
      expect(rows[0].n).toBe(1);
    });

    it('creates origin-signed identities for entities and publishes through the ports', async () => {
      const origin = originOf(t);
      expect(t.app.get(OriginIdentities)).toBe(origin);
      expect(t.app.get(ContentPublisher)).toBe(origin);
      const [space, group] = await Promise.all([origin.createIdentityFor(), origin.createIdentityFor()]);
      expect(space.did).not.toBe(group.did);
      const state = await request(t.http).get(`/relay/proof/v1/identities/${space.did}`);
      expect(state.body.state.controllerKeys).toEqual([
        { id: origin.signer.keyId, type: 'Multikey', publicKeyMultibase: origin.signer.multikey },
      ]);
      expect(state.body.state.services).toEqual([
        { id: 'relay', type: 'PlatRelay', endpoint: 'http://api.plat.test/relay' },
      ]);
      expect(await origin.headOf(space.did)).toBe(space.headCid);

      const changed = await origin.updateIdentityServices(space.did, [
        { id: 'site', type: 'LinkedDomains', endpoint: 'https://space.example' },
      ]);
      expect(await origin.headOf(space.did)).toBe(changed.headCid);
      await origin.deleteIdentity(group.did);
      expect(
        (await request(t.http).get(`/relay/proof/v1/identities/${group.did}`)).body.state.isDeleted,
      ).toBe(true);

      const content = await origin.publish(null, {
        $schema: 'https://schemas.dfos.com/profile/v1',
        name: 'Space',
      });
      const chain = await request(t.http).get(`/relay/proof/v1/content/${content.contentId}`);
      expect(chain.body.state.creatorDID).toBe(origin.did);
      expect(chain.body.headCID).toBe(content.headCid);

      // Every create and update carries baseDocumentCID, which PROTOCOL.md's schema requires
      // (`string | null`, not optional): verifiers written from the prose refuse operations without it.
      const updated = await origin.publish(content, {
        $schema: 'https://schemas.dfos.com/profile/v1',
        name: 'Renamed',
      });
      const log = await request(t.http).get(`/relay/proof/v1/content/${updated.contentId}/log`);
      const payloadOf = (jws: string) =>
        JSON.parse(Buffer.from(jws.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
      const payloads = (log.body.entries as { jwsToken: string }[]).map((entry) => payloadOf(entry.jwsToken));
      expect(payloads.map((payload) => [payload.type, payload.baseDocumentCID])).toEqual([
        ['create', null],
        ['update', null],
      ]);
      const genesis = t.app
        .get(OriginChainGenesisService)
        .sign({ $schema: 'https://schemas.dfos.com/post/v1' });
      expect(payloadOf(genesis.jws)).toMatchObject({ type: 'create', baseDocumentCID: null });
    });
  });
});
