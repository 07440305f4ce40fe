import { EventEmitter } from 'node:events';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../src/config/app-config';
import type { IdentityState } from '../../../src/protocol/core';
import {
  EPOCH_CHECK_INTERVAL_MS,
  IdentityCacheBusService,
} from '../../../src/protocol/relay/services/identity-cache-bus.service';
import { IdentityCacheEpochRepository as IdentityCacheEpoch } from '../../../src/protocol/relay/repositories/identity-cache-epoch.repository';
import { SharedRedis } from '../../../src/infrastructure/redis/shared-redis';
import { IdentityStateService } from '../../../src/protocol/relay/services/identity-state.service';
import { ShiftedClock } from '../../support/clock';

const DID = 'did:plat:2346789acdefhknrtvz2346789acdef';

const stateWith = (headCid: string): IdentityState => ({
  did: DID,
  isDeleted: false,
  authKeys: [],
  assertKeys: [],
  controllerKeys: [],
  services: [],
  headCid,
  lastCreatedAt: '2026-01-01T00:00:00.000Z',
  opCount: 1,
});

/** A data source whose identity read answers the current head, optionally pausing until released. */
class FakeStore {
  head = 'head-1';
  reads = 0;
  gate: Promise<void> | null = null;

  dataSource(): DataSource {
    return {
      query: async () => {
        this.reads += 1;
        const head = this.head;
        if (this.gate) await this.gate;
        return [
          {
            RelayIdentityChain_did: DID,
            RelayIdentityChain_state: stateWith(head),
            RelayIdentityChain_key_history: [],
          },
        ];
      },
    } as unknown as DataSource;
  }
}

/** The database's missed-invalidation epoch, in memory (shared by the replicas of a test). */
class FakeEpoch {
  value = 0;
  reads = 0;
  failReads = false;

  bump(): Promise<void> {
    this.value += 1;
    return Promise.resolve();
  }

  read(): Promise<string> {
    this.reads += 1;
    return this.failReads ? Promise.reject(new Error('database down')) : Promise.resolve(String(this.value));
  }
}

const asEpoch = (epoch: FakeEpoch) => epoch as unknown as IdentityCacheEpoch;

const localBus = () =>
  new IdentityCacheBusService(
    new SharedRedis(Object.assign(new AppConfig(), { REDIS_URL: undefined })),
    asEpoch(new FakeEpoch()),
    new ShiftedClock(),
  );

/** A replica's bus over a Redis whose subscription is up and whose PUBLISH fails (or not). */
async function redisBus(epoch: FakeEpoch, clock: ShiftedClock, publishFails: boolean) {
  const subscriber = Object.assign(new EventEmitter(), { subscribe: () => Promise.resolve(1) });
  const commands = {
    publish: () => (publishFails ? Promise.reject(new Error('connection is closed')) : Promise.resolve(0)),
  };
  const redis = { subscriber: () => subscriber, commands } as unknown as SharedRedis;
  const bus = new IdentityCacheBusService(redis, asEpoch(epoch), clock);
  subscriber.emit('ready');
  expect(await bus.ready(1000)).toBe(true);
  return bus;
}

describe('IdentityStateService cache', () => {
  it('serves repeated reads from the cache until an invalidation', async () => {
    const store = new FakeStore();
    const bus = localBus();
    const service = new IdentityStateService(store.dataSource(), bus);
    expect((await service.current(DID))?.headCid).toBe('head-1');
    store.head = 'head-2';
    expect((await service.current(DID))?.headCid).toBe('head-1');
    expect(store.reads).toBe(1);
    await bus.publish([DID]);
    expect((await service.current(DID))?.headCid).toBe('head-2');
    expect(store.reads).toBe(2);
  });

  it('does not cache a read that overlapped an invalidation (it may predate the change)', async () => {
    const store = new FakeStore();
    const bus = localBus();
    const service = new IdentityStateService(store.dataSource(), bus);
    let release!: () => void;
    store.gate = new Promise((resolve) => (release = resolve));
    const slow = service.current(DID); // reads head-1 ...
    await new Promise((resolve) => setImmediate(resolve));
    store.head = 'head-2';
    await bus.publish([DID]); // ... the change commits and is announced meanwhile
    release();
    expect((await slow)?.headCid).toBe('head-1');
    store.gate = null;
    expect((await service.current(DID))?.headCid).toBe('head-2');
  });

  it('bypasses the cache while the bus cannot guarantee invalidations', async () => {
    const store = new FakeStore();
    const incoherent = { coherent: false, listen: () => undefined } as unknown as IdentityCacheBusService;
    const service = new IdentityStateService(store.dataSource(), incoherent);
    await service.current(DID);
    store.head = 'head-2';
    expect((await service.current(DID))?.headCid).toBe('head-2');
    expect(store.reads).toBe(2);
  });

  it('answers null for a malformed DID without touching the store', async () => {
    const store = new FakeStore();
    const service = new IdentityStateService(store.dataSource(), localBus());
    expect(await service.current('did:plat:short')).toBeNull();
    expect(await service.resolveKeyAt('not-a-did', 'key_x')).toBeNull();
    expect(store.reads).toBe(0);
  });

  it('reset drops everything cached', async () => {
    const store = new FakeStore();
    const service = new IdentityStateService(store.dataSource(), localBus());
    await service.current(DID);
    store.head = 'head-3';
    service.reset();
    expect((await service.current(DID))?.headCid).toBe('head-3');
  });
});

/**
 * A replica whose invalidation publish fails records it in the database, and the
 * other replicas, still subscribed, stop trusting their cache within EPOCH_CHECK_INTERVAL_MS instead
 * of the 60 s TTL (docs/decisions/0105-identity-cache-missed-invalidations.md).
 */
describe('IdentityCacheBusService: an invalidation that could not be published', () => {
  it('is recorded by the publisher and drops the other replica’s cache at its next epoch check', async () => {
    const epoch = new FakeEpoch();
    const clockB = new ShiftedClock();
    const a = await redisBus(epoch, new ShiftedClock(), true);
    const b = await redisBus(epoch, clockB, false);
    const store = new FakeStore();
    const onB = new IdentityStateService(store.dataSource(), b);
    expect((await onB.current(DID))?.headCid).toBe('head-1'); // cached on B

    store.head = 'head-2'; // a key removed, committed on A...
    await a.publish([DID]); // ...whose publish fails
    expect(epoch.value).toBe(1);
    // Within the interval B still serves its cache (one epoch read per interval, not per request)...
    expect((await onB.current(DID))?.headCid).toBe('head-1');
    const reads = epoch.reads;
    clockB.offsetMs += EPOCH_CHECK_INTERVAL_MS;
    // ...then its next read sees the epoch moved and reloads.
    expect((await onB.current(DID))?.headCid).toBe('head-2');
    expect(epoch.reads).toBe(reads + 1);
  });

  it('a published invalidation records nothing', async () => {
    const epoch = new FakeEpoch();
    const a = await redisBus(epoch, new ShiftedClock(), false);
    await a.publish([DID]);
    expect(epoch.value).toBe(0);
  });

  it('an epoch that cannot be read is not trusted: the cache is bypassed until it can be', async () => {
    const epoch = new FakeEpoch();
    const clock = new ShiftedClock();
    const bus = await redisBus(epoch, clock, false);
    const store = new FakeStore();
    const service = new IdentityStateService(store.dataSource(), bus);
    await service.current(DID);
    epoch.failReads = true;
    clock.offsetMs += EPOCH_CHECK_INTERVAL_MS;
    store.head = 'head-2';
    expect((await service.current(DID))?.headCid).toBe('head-2');
    store.head = 'head-3';
    expect((await service.current(DID))?.headCid).toBe('head-3');
  });

  it('without Redis the epoch is never read', async () => {
    const epoch = new FakeEpoch();
    const bus = new IdentityCacheBusService(
      new SharedRedis(Object.assign(new AppConfig(), { REDIS_URL: undefined })),
      asEpoch(epoch),
      new ShiftedClock(),
    );
    const service = new IdentityStateService(new FakeStore().dataSource(), bus);
    await service.current(DID);
    await service.current(DID);
    expect(epoch.reads).toBe(0);
  });
});
