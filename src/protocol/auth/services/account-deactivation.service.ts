import { Injectable } from '@nestjs/common';
import {
  IdentityCacheBusService,
  IdentityCacheListener,
} from '../../relay/services/identity-cache-bus.service';

/** Whether the platform holds an identity's account deactivated (an erasure pending). */
export type DeactivationSource = (did: string) => Promise<boolean>;

/** Upper bound on cached answers (least recently used go first). */
const MAX_CACHED = 10_000;
/** Safety net only, as the identity cache's: invalidation is explicit, over the identity cache bus. */
const CACHE_TTL_MS = 60_000;

/**
 * Deactivation by the platform rather than by the identity chain: an account whose erasure is
 * pending (docs/decisions/0191-a-pending-erasure-deactivates-as-a-delete.md). Credentials it issued are
 * refused and its live streams do not stand, as for a `delete`
 * (docs/decisions/0190-deactivation-follows-the-identity-chain.md), and its own proofs verify only
 * on the routes leaving needs, to see and cancel it
 * (docs/decisions/0198-a-pending-erasure-accepts-proofs-only-to-leave.md). The users module owns the state and registers where to read it
 * (users imports protocol, not the reverse); the answers are cached per replica and dropped by the
 * identity cache bus, which `changed` drives on every replica, so streams re-check at once.
 */
@Injectable()
export class AccountDeactivationService implements IdentityCacheListener {
  private source: DeactivationSource | null = null;
  private readonly cache = new Map<string, { deactivated: boolean; expiresAt: number }>();
  /** Bumped by every invalidation: a read that overlapped one must not fill the cache. */
  private generation = 0;

  constructor(private readonly bus: IdentityCacheBusService) {
    bus.listen(this);
  }

  /** Where the state is read; the users module registers it at boot. */
  register(source: DeactivationSource): void {
    this.source = source;
  }

  /** Whether the account of `did` is held deactivated now. */
  async isDeactivated(did: string): Promise<boolean> {
    if (!this.source) return false;
    const useCache = this.bus.coherent;
    if (useCache) await this.bus.confirmNoMissedInvalidation();
    const now = Date.now();
    const hit = useCache ? this.cache.get(did) : undefined;
    if (hit && hit.expiresAt > now) return hit.deactivated;
    const generation = this.generation;
    const deactivated = await this.source(did);
    if (useCache && this.bus.coherent && generation === this.generation) {
      this.cache.delete(did);
      this.cache.set(did, { deactivated, expiresAt: now + CACHE_TTL_MS });
      if (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value as string);
    }
    return deactivated;
  }

  /** After a commit that changed it: every replica drops what it knew and re-checks the streams. */
  changed(did: string): Promise<void> {
    return this.bus.publish([did]);
  }

  invalidate(did: string): void {
    this.generation += 1;
    this.cache.delete(did);
  }

  reset(): void {
    this.generation += 1;
    this.cache.clear();
  }
}
