import { Injectable } from '@nestjs/common';
import { BusCoherentCache } from '../domain/bus-coherent-cache';
import { IdentityCacheBusService } from './identity-cache-bus.service';

/** Whether the platform holds an identity's account deactivated (an erasure pending). */
export type DeactivationSource = (did: string) => Promise<boolean>;

/** As the identity cache's: invalidation is explicit, over the identity cache bus; the TTL a safety net. */
const CACHE_OPTIONS = { maxEntries: 10_000, ttlMs: 60_000 };

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
export class AccountDeactivationService {
  private source: DeactivationSource | null = null;
  private readonly cache: BusCoherentCache<boolean>;

  constructor(private readonly bus: IdentityCacheBusService) {
    this.cache = new BusCoherentCache(bus, CACHE_OPTIONS);
  }

  /** Where the state is read; the users module registers it at boot. */
  register(source: DeactivationSource): void {
    this.source = source;
  }

  /** Whether the account of `did` is held deactivated now. */
  async isDeactivated(did: string): Promise<boolean> {
    const source = this.source;
    if (!source) return false;
    return this.cache.get(did, () => source(did));
  }

  /** After a commit that changed it: every replica drops what it knew and re-checks the streams. */
  changed(did: string): Promise<void> {
    return this.bus.publish([did]);
  }
}
