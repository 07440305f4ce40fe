import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { IdentityDirectory } from '../../auth/domain/identity-directory';
import {
  decodeJws,
  findKey as findStateKey,
  hasKeyRole,
  historicalKeys,
  isPlatDid,
  validateIdentityOperation,
  type IdentityOperation,
  type IdentityState,
  type KeyRole,
  type MultikeyPublicKey,
} from '../../core';
import { RelayChainsRepository } from '../repositories/relay-chains.repository';
import { RelayOperationsRepository } from '../repositories/relay-operations.repository';
import { IdentityCacheBusService, IdentityCacheListener } from './identity-cache-bus.service';

/** Upper bound on cached identities (least recently used go first). */
const MAX_CACHED_IDENTITIES = 10_000;
/**
 * Safety net only: invalidation is explicit (on ingest, and across replicas over Redis, or through
 * the database when a publish fails). The TTL bounds staleness should both be lost.
 */
const CACHE_TTL_MS = 60_000;

interface CachedIdentity {
  state: IdentityState | null;
  keyHistory: MultikeyPublicKey[];
  expiresAt: number;
}

/**
 * Current identity state for request proofs, credentials and the relay's reads: the folded head of
 * the identity chain (the library's IdentityState), from an in-process cache that ingest
 * invalidates. Also the historical key resolver for credentials issued in the past.
 */
@Injectable()
export class IdentityStateService extends IdentityDirectory implements IdentityCacheListener {
  private readonly cache = new Map<string, CachedIdentity>();
  /** Bumped by every invalidation: a load that overlapped one must not fill the cache. */
  private generation = 0;

  constructor(
    // The data source only builds the repositories when a test constructs the service by hand.
    @InjectDataSource() dataSource: DataSource,
    private readonly bus: IdentityCacheBusService,
    private readonly chains: RelayChainsRepository = new RelayChainsRepository(dataSource),
    private readonly operations: RelayOperationsRepository = new RelayOperationsRepository(dataSource),
  ) {
    super();
    bus.listen(this);
  }

  /** Current folded state of the identity chain, or null when the relay has no such chain. */
  async current(did: string): Promise<IdentityState | null> {
    return (await this.load(did)).state;
  }

  /**
   * A key that was ever in the chain (historical resolution, CREDENTIALS.md "Key resolution"): any
   * role, including keys rotated out since. With `at.cid`, only keys that appeared up to and
   * including that operation of the chain (null when the chain has no such operation). When one
   * key id named different keys over time, the most recent one answers.
   */
  async resolveKeyAt(did: string, keyId: string, at?: { cid?: string }): Promise<MultikeyPublicKey | null> {
    if (at?.cid === undefined) {
      const { keyHistory } = await this.load(did);
      return lastWithId(keyHistory, keyId);
    }
    if (!isPlatDid(did)) return null;
    const rows = await this.operations.identityOperations(did);
    const upTo = rows.findIndex((row) => row.cid === at.cid);
    if (upTo < 0) return null;
    const operations: IdentityOperation[] = rows
      .slice(0, upTo + 1)
      .map((row) => validateIdentityOperation(decodeJws(row.jws).payload));
    return lastWithId(historicalKeys(operations), keyId);
  }

  /** Does this key id hold the auth role in the state? (Writes must be signed by one, design.md §3.) */
  isAuthKey(state: IdentityState, keyId: string): boolean {
    return hasKeyRole(state, keyId, 'auth');
  }

  /** The key with this id in the state (in `role`, when given). */
  findKey(state: IdentityState, keyId: string, role?: KeyRole): MultikeyPublicKey | undefined {
    return findStateKey(state, keyId, role);
  }

  invalidate(did: string): void {
    this.generation += 1;
    this.cache.delete(did);
  }

  reset(): void {
    this.generation += 1;
    this.cache.clear();
  }

  private async load(did: string): Promise<CachedIdentity> {
    if (!isPlatDid(did)) return { state: null, keyHistory: [], expiresAt: 0 };
    const useCache = this.bus.coherent;
    if (useCache) await this.bus.confirmNoMissedInvalidation();
    const now = Date.now();
    if (useCache) {
      const hit = this.cache.get(did);
      if (hit && hit.expiresAt > now) {
        // Refresh its place in the LRU order.
        this.cache.delete(did);
        this.cache.set(did, hit);
        return hit;
      }
    }
    const generation = this.generation;
    const row = await this.chains.findIdentity(did);
    const entry: CachedIdentity = {
      state: row?.state ?? null,
      keyHistory: row?.keyHistory ?? [],
      expiresAt: now + CACHE_TTL_MS,
    };
    if (useCache && this.bus.coherent && generation === this.generation) {
      this.cache.delete(did);
      this.cache.set(did, entry);
      if (this.cache.size > MAX_CACHED_IDENTITIES) {
        this.cache.delete(this.cache.keys().next().value as string);
      }
    }
    return entry;
  }
}

function lastWithId(keys: readonly MultikeyPublicKey[], keyId: string): MultikeyPublicKey | null {
  for (let i = keys.length - 1; i >= 0; i--) if (keys[i].id === keyId) return keys[i];
  return null;
}
