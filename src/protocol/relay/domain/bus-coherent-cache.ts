import type { IdentityCacheListener } from '../services/identity-cache-bus.service';

/** What the cache needs of the identity cache bus (IdentityCacheBusService). */
export interface CoherenceBus {
  /** False while invalidations from other replicas could be missed: nothing is served from memory. */
  readonly coherent: boolean;
  /** Resolves once a missed invalidation, if any, has reset the listeners. */
  confirmNoMissedInvalidation(): Promise<void>;
  listen(listener: IdentityCacheListener): void;
}

export interface BusCoherentCacheOptions {
  /** Upper bound on entries (least recently used go first). */
  maxEntries: number;
  /** Safety net only: invalidation is explicit, over the bus. */
  ttlMs: number;
}

/**
 * A per-replica cache of answers about identities, kept coherent across replicas by the identity
 * cache bus (docs/decisions/0105-identity-cache-missed-invalidations.md): served only while the bus
 * is coherent, dropped per DID or whole on its messages, and never filled by a load that overlapped
 * an invalidation (a generation counter), so a racing change cannot be cached over.
 */
export class BusCoherentCache<V> implements IdentityCacheListener {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  /** Bumped by every invalidation: a load that overlapped one must not fill the cache. */
  private generation = 0;

  constructor(
    private readonly bus: CoherenceBus,
    private readonly options: BusCoherentCacheOptions,
  ) {
    bus.listen(this);
  }

  /** The cached answer for `did`, or `load`'s (cached when nothing invalidated it meanwhile). */
  async get(did: string, load: () => Promise<V>): Promise<V> {
    const useCache = this.bus.coherent;
    if (useCache) await this.bus.confirmNoMissedInvalidation();
    const now = Date.now();
    if (useCache) {
      const hit = this.entries.get(did);
      if (hit && hit.expiresAt > now) {
        // Refresh its place in the LRU order.
        this.entries.delete(did);
        this.entries.set(did, hit);
        return hit.value;
      }
    }
    const generation = this.generation;
    const value = await load();
    if (useCache && this.bus.coherent && generation === this.generation) {
      this.entries.delete(did);
      this.entries.set(did, { value, expiresAt: now + this.options.ttlMs });
      if (this.entries.size > this.options.maxEntries) {
        this.entries.delete(this.entries.keys().next().value as string);
      }
    }
    return value;
  }

  invalidate(did: string): void {
    this.generation += 1;
    this.entries.delete(did);
  }

  reset(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
