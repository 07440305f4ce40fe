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
import { BusCoherentCache } from '../domain/bus-coherent-cache';
import { IdentityCacheBusService } from './identity-cache-bus.service';

/**
 * Invalidation is explicit (on ingest, and across replicas over Redis, or through the database when
 * a publish fails); the TTL, a safety net, bounds staleness should both be lost.
 */
const CACHE_OPTIONS = { maxEntries: 10_000, ttlMs: 60_000 };

interface CachedIdentity {
  state: IdentityState | null;
  keyHistory: MultikeyPublicKey[];
}

/**
 * Current identity state for request proofs, credentials and the relay's reads: the folded head of
 * the identity chain (the library's IdentityState), from an in-process cache that ingest
 * invalidates. Also the historical key resolver for credentials issued in the past.
 */
@Injectable()
export class IdentityStateService extends IdentityDirectory {
  private readonly cache: BusCoherentCache<CachedIdentity>;

  constructor(
    // The data source only builds the repositories when a test constructs the service by hand.
    @InjectDataSource() dataSource: DataSource,
    private readonly bus: IdentityCacheBusService,
    private readonly chains: RelayChainsRepository = new RelayChainsRepository(dataSource),
    private readonly operations: RelayOperationsRepository = new RelayOperationsRepository(dataSource),
  ) {
    super();
    this.cache = new BusCoherentCache(bus, CACHE_OPTIONS);
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

  /** Forget every cached identity (tests that change chains behind the service's back). */
  reset(): void {
    this.cache.reset();
  }

  private load(did: string): Promise<CachedIdentity> {
    if (!isPlatDid(did)) return Promise.resolve(NO_IDENTITY);
    return this.cache.get(did, async () => {
      const row = await this.chains.findIdentity(did);
      return { state: row?.state ?? null, keyHistory: row?.keyHistory ?? [] };
    });
  }
}

const NO_IDENTITY: CachedIdentity = { state: null, keyHistory: [] };

function lastWithId(keys: readonly MultikeyPublicKey[], keyId: string): MultikeyPublicKey | null {
  for (let i = keys.length - 1; i >= 0; i--) if (keys[i].id === keyId) return keys[i];
  return null;
}
