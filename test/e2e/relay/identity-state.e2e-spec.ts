import request from 'supertest';
import { DataSource } from 'typeorm';
import { ApiError } from '../../../src/common/errors/api-error';
import { generateKeySigner, multikeyEntry } from '../../../src/protocol/core';
import { Clock } from '../../../src/common/clock/clock';
import { SharedRedis } from '../../../src/infrastructure/redis/shared-redis';
import {
  EPOCH_CHECK_INTERVAL_MS,
  IdentityCacheBusService,
} from '../../../src/protocol/relay/services/identity-cache-bus.service';
import { IdentityStateService } from '../../../src/protocol/relay/services/identity-state.service';
import { RevocationService } from '../../../src/protocol/relay/services/revocation.service';
import { createMigratedTestDatabase } from '../../support/database';
import { TestApp } from '../../support/app';
import { ShiftedClock } from '../../support/clock';
import { allRoles, bootRelayApp, ingest, TestIdentity } from './support';
import { eventually } from '../../support/eventually';

/** The real Redis of this machine and CI (as the rate-limit tests use it). */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('identity state service (e2e)', () => {
  let t: TestApp;
  let identities: IdentityStateService;

  beforeAll(async () => {
    t = await bootRelayApp({ env: { REDIS_URL: '' } });
    identities = t.app.get(IdentityStateService);
  });

  afterAll(async () => {
    await t.close();
  });

  it('serves state from its cache, and an ingested update invalidates it', async () => {
    const alice = new TestIdentity();
    await ingest(t, [alice.genesis]);
    const before = await identities.current(alice.did);
    expect(before?.headCid).toBe(alice.head);

    // Behind the cache's back: a cached read does not see it (the cache really serves reads)...
    await t.app
      .get(DataSource)
      .query(
        `UPDATE relay_identity_chains SET state = jsonb_set(state, '{services}', '[{"id":"x","type":"Probe"}]') WHERE did = $1`,
        [alice.did],
      );
    expect((await identities.current(alice.did))?.services).toEqual([]);

    // ...while an update through the relay invalidates and the next read reflects it.
    const second = generateKeySigner();
    const update = alice.update(allRoles(alice.signer, second));
    await ingest(t, [update.jws]);
    const after = await identities.current(alice.did);
    expect(after?.headCid).toBe(update.cid);
    expect(after?.authKeys.map((key) => key.publicKeyMultibase)).toContain(second.multikey);
    // The HTTP state route reads through the same service.
    expect((await request(t.http).get(`/relay/proof/v1/identities/${alice.did}`)).body.headCID).toBe(
      update.cid,
    );
  });

  it('answers null for unknown or malformed DIDs, then the identity once ingested', async () => {
    const bob = new TestIdentity();
    expect(await identities.current(bob.did)).toBeNull();
    expect(await identities.current('did:plat:nope')).toBeNull();
    await ingest(t, [bob.genesis]);
    expect((await identities.current(bob.did))?.did).toBe(bob.did);
  });

  it('resolves keys historically: a rotated-out key still resolves, up to a given operation', async () => {
    const first = generateKeySigner();
    const second = generateKeySigner();
    const carol = new TestIdentity(first);
    const rotation = carol.update(allRoles(second));
    await ingest(t, [carol.genesis, rotation.jws]);
    const state = (await identities.current(carol.did))!;
    expect(identities.findKey(state, first.keyId)).toBeUndefined();
    expect(identities.isAuthKey(state, second.keyId)).toBe(true);
    expect(identities.isAuthKey(state, first.keyId)).toBe(false);

    expect(await identities.resolveKeyAt(carol.did, first.keyId)).toEqual(multikeyEntry(first));
    expect(await identities.resolveKeyAt(carol.did, second.keyId)).toEqual(multikeyEntry(second));
    const genesisCid = (await request(t.http).get(`/relay/proof/v1/identities/${carol.did}/log`)).body
      .entries[0].cid;
    expect(await identities.resolveKeyAt(carol.did, first.keyId, { cid: genesisCid })).toEqual(
      multikeyEntry(first),
    );
    expect(await identities.resolveKeyAt(carol.did, second.keyId, { cid: genesisCid })).toBeNull();
    expect(await identities.resolveKeyAt(carol.did, second.keyId, { cid: rotation.cid })).toEqual(
      multikeyEntry(second),
    );
    expect(await identities.resolveKeyAt(carol.did, 'key_unknown')).toBeNull();
    expect(await identities.resolveKeyAt(carol.did, first.keyId, { cid: 'bafyreiunknown' })).toBeNull();
  });
});

describe('revocation service (e2e)', () => {
  it('answers per issuer, and fails with 503 (never "not revoked") when the store cannot answer', async () => {
    const t = await bootRelayApp();
    const revocations = t.app.get(RevocationService);
    const dataSource = t.app.get(DataSource);
    try {
      const issuer = new TestIdentity();
      const rogue = new TestIdentity();
      await ingest(t, [issuer.genesis, rogue.genesis]);
      const credential = issuer.credential(rogue.did, [{ resource: 'chain:*', action: 'read' }]);
      expect(await revocations.isRevoked(credential.cid)).toBe(false);

      // Someone else "revoking" it does not revoke it for its issuer.
      await ingest(t, [rogue.revoke(credential.cid).token]);
      expect(await revocations.isRevoked(credential.cid, issuer.did)).toBe(false);
      await ingest(t, [issuer.revoke(credential.cid).token]);
      expect(await revocations.isRevoked(credential.cid, issuer.did)).toBe(true);
      expect(await revocations.isRevoked(credential.cid)).toBe(true);

      await dataSource.query('ALTER TABLE relay_revocations RENAME TO relay_revocations_away');
      try {
        const failure = await revocations.isRevoked(credential.cid).catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(ApiError);
        expect((failure as ApiError).getStatus()).toBe(503);
        expect((failure as ApiError).body.code).toBe('E_SERVICE_UNAVAILABLE');
      } finally {
        await dataSource.query('ALTER TABLE relay_revocations_away RENAME TO relay_revocations');
      }
    } finally {
      await t.close();
    }
  });
});

/**
 * Resolves once `receiver` has handled a marker invalidation published by each of `senders`:
 * Redis delivers one connection's messages in order, so everything they published before is in.
 */
async function quiet(receiver: TestApp, senders: TestApp[]): Promise<void> {
  await Promise.all(
    senders.map((sender, index) => {
      const marker = `did:plat:quiet-marker-${index}-${Date.now()}`;
      const handled = new Promise<void>((resolve) =>
        receiver.app.get(IdentityCacheBusService).listen({
          invalidate: (did) => did === marker && resolve(),
          reset: () => undefined,
        }),
      );
      return sender.app
        .get(IdentityCacheBusService)
        .publish([marker])
        .then(() => handled);
    }),
  );
}

describe('identity cache across replicas over Redis (e2e)', () => {
  it('an update ingested on one replica is seen by the other’s next read', async () => {
    const database = await createMigratedTestDatabase();
    const env = { REDIS_URL };
    const a = await bootRelayApp({ databaseUrl: database.url, env });
    const b = await bootRelayApp({ databaseUrl: database.url, env });
    try {
      expect(await b.app.get(IdentityCacheBusService).ready()).toBe(true);
      const dave = new TestIdentity();
      // The genesis's invalidation reaches B asynchronously: wait for it, or it could clear what B
      // caches next and the "served from cache" check below would race it.
      const invalidatedOnB = new Promise<void>((resolve) =>
        b.app.get(IdentityCacheBusService).listen({
          invalidate: (did) => did === dave.did && resolve(),
          reset: () => undefined,
        }),
      );
      await ingest(a, [dave.genesis]);
      await invalidatedOnB;
      // Any invalidation B handles while it loads spoils that load's caching (by design): let the
      // ones still in flight from either replica (their origin identities, made at boot) land first.
      await quiet(b, [a, b]);
      const onB = b.app.get(IdentityStateService);
      expect((await onB.current(dave.did))?.headCid).toBe(dave.head); // now cached on B
      // B really serves from its cache: a change behind its back stays invisible there.
      await b.app
        .get(DataSource)
        .query(
          `UPDATE relay_identity_chains SET state = jsonb_set(state, '{services}', '[{"id":"x","type":"Probe"}]') WHERE did = $1`,
          [dave.did],
        );
      expect((await onB.current(dave.did))?.services).toEqual([]);

      const update = dave.update(allRoles(dave.signer, generateKeySigner()));
      await ingest(a, [update.jws]);
      const seen = await eventually(
        () => onB.current(dave.did),
        (state) => state?.headCid === update.cid,
        3000,
      );
      expect(seen?.headCid).toBe(update.cid);
    } finally {
      await a.app.close();
      await b.app.close();
      await database.drop();
    }
  });

  // Replica A commits a key removal but cannot publish its invalidation (its Redis connection is
  // cut) while B stays subscribed; B used to accept the removed key for up to 60 s
  // (docs/decisions/0105-identity-cache-missed-invalidations.md).
  it('attack: a removed key whose invalidation could not be published stops verifying on the other replica within the epoch check interval', async () => {
    const database = await createMigratedTestDatabase();
    const env = { REDIS_URL };
    const clockB = new ShiftedClock();
    const a = await bootRelayApp({ databaseUrl: database.url, env });
    const b = await bootRelayApp({
      databaseUrl: database.url,
      env,
      override: (builder) => builder.overrideProvider(Clock).useValue(clockB),
    });
    try {
      expect(await b.app.get(IdentityCacheBusService).ready()).toBe(true);
      const [kept, removed] = [generateKeySigner(), generateKeySigner()];
      const erin = new TestIdentity(kept, { keys: allRoles(kept, removed) });
      const invalidatedOnB = new Promise<void>((resolve) =>
        b.app.get(IdentityCacheBusService).listen({
          invalidate: (did) => did === erin.did && resolve(),
          reset: () => undefined,
        }),
      );
      await ingest(a, [erin.genesis]);
      await invalidatedOnB;
      await quiet(b, [a, b]);
      const onB = b.app.get(IdentityStateService);
      const hasRemovedKey = async () =>
        ((await onB.current(erin.did))?.authKeys ?? []).some(
          (key) => key.publicKeyMultibase === removed.multikey,
        );
      expect(await hasRemovedKey()).toBe(true); // cached on B

      a.app.get(SharedRedis).commands!.disconnect(); // A's publish now fails; B stays subscribed
      const removal = erin.update(allRoles(kept));
      expect((await ingest(a, [removal.jws]))[0].status).toBe('new');

      clockB.offsetMs += EPOCH_CHECK_INTERVAL_MS;
      expect(await hasRemovedKey()).toBe(false);
      expect((await onB.current(erin.did))?.headCid).toBe(removal.cid);
    } finally {
      await a.app.close();
      await b.app.close();
      await database.drop();
    }
  });
});
