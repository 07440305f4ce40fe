import { DataSource } from 'typeorm';
import { AppConfig } from '../../../src/config/app-config';
import type { IdentityState } from '../../../src/protocol/core';
import { IdentityCacheBus } from '../../../src/protocol/relay/identity-cache-bus';
import { SharedRedis } from '../../../src/infrastructure/redis/shared-redis';
import { IdentityStateService } from '../../../src/protocol/relay/identity-state.service';

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

/** A repository whose findOne answers from `rows`, optionally pausing until released. */
class FakeStore {
  head = 'head-1';
  reads = 0;
  gate: Promise<void> | null = null;

  dataSource(): DataSource {
    return {
      getRepository: () => ({
        findOne: async () => {
          this.reads += 1;
          const head = this.head;
          if (this.gate) await this.gate;
          return { did: DID, state: stateWith(head), keyHistory: [] };
        },
      }),
    } as unknown as DataSource;
  }
}

const localBus = () =>
  new IdentityCacheBus(new SharedRedis(Object.assign(new AppConfig(), { REDIS_URL: undefined })));

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
    const incoherent = { coherent: false, listen: () => undefined } as unknown as IdentityCacheBus;
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
