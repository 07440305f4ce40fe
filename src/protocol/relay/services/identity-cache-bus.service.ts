import { Injectable, Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { Clock } from '../../../common/clock/clock';
import { SharedRedis } from '../../../infrastructure/redis/shared-redis';
import { IdentityCacheEpochRepository } from '../repositories/identity-cache-epoch.repository';

export const IDENTITY_INVALIDATION_CHANNEL = 'plat:relay:identity-invalidated';

/**
 * With Redis, how long a replica serves its cache before it re-reads the missed-invalidation epoch:
 * the bound on trusting a state whose invalidation could not be published
 * (docs/decisions/0105-identity-cache-missed-invalidations.md).
 */
export const EPOCH_CHECK_INTERVAL_MS = 1000;

export interface IdentityCacheListener {
  /** One DID's cached state is stale. */
  invalidate(did: string): void;
  /** Everything cached may be stale (invalidations may have been missed). */
  reset(): void;
}

/**
 * Carries "this identity changed" between replicas. Without REDIS_URL there is one replica and the
 * message only goes to local listeners. With Redis every ingest publishes on a channel all replicas
 * subscribe to; while the subscription is down a replica must not trust its cache (`coherent` is
 * false) and, once it is back, drops everything it cached (messages may have been lost meanwhile).
 *
 * A publish that fails while the other replicas stay subscribed reaches them through the database
 * instead: the publisher bumps the identity cache epoch (IdentityCacheEpochRepository), and every replica re-reads it at most
 * EPOCH_CHECK_INTERVAL_MS before serving from its cache, dropping everything when it moved.
 */
@Injectable()
export class IdentityCacheBusService {
  private readonly logger = new Logger(IdentityCacheBusService.name);
  private readonly listeners = new Set<IdentityCacheListener>();
  private readonly instance = randomUUID();
  private readonly publisher?: Redis;
  private readonly subscriber?: Redis;
  private subscribed = false;
  /** The epoch last read, when it was read (clock ms), and the read under way. */
  private epochSeen: string | null = null;
  private epochCheckedAt = Number.NEGATIVE_INFINITY;
  private epochCheck: Promise<void> | null = null;

  constructor(
    redis: SharedRedis,
    private readonly epoch: IdentityCacheEpochRepository,
    private readonly clock: Clock,
  ) {
    const subscriber = redis.subscriber();
    if (!subscriber) return;
    this.publisher = redis.commands!;
    this.subscriber = subscriber;
    this.subscriber.on('close', () => {
      this.subscribed = false;
    });
    this.subscriber.on('ready', () => void this.subscribe());
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel === IDENTITY_INVALIDATION_CHANNEL) this.receive(message);
    });
  }

  /** Whether a cached identity state may be served (every invalidation reaches this replica). */
  get coherent(): boolean {
    return this.subscriber === undefined || this.subscribed;
  }

  /** Resolves once the subscription is live (immediately without Redis); for boot and tests. */
  async ready(timeoutMs = 5000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.coherent && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return this.coherent;
  }

  listen(listener: IdentityCacheListener): void {
    this.listeners.add(listener);
  }

  /** Invalidates here at once, then tells the other replicas. */
  async publish(dids: readonly string[]): Promise<void> {
    if (dids.length === 0) return;
    for (const did of dids) this.listeners.forEach((listener) => listener.invalidate(did));
    if (!this.publisher) return;
    try {
      await this.publisher.publish(
        IDENTITY_INVALIDATION_CHANNEL,
        JSON.stringify({ from: this.instance, dids }),
      );
    } catch (error) {
      this.logger.warn(`identity invalidation not published: ${(error as Error).message}`);
      await this.recordMissedInvalidation();
    }
  }

  /**
   * Before serving from a cache: with Redis, re-reads the missed-invalidation epoch when the last read
   * is EPOCH_CHECK_INTERVAL_MS old, and drops everything cached when it moved (or cannot be read).
   * Concurrent callers share one read. Nothing to do without Redis: every invalidation is local.
   */
  async confirmNoMissedInvalidation(): Promise<void> {
    if (!this.publisher) return;
    if (this.clock.now().getTime() - this.epochCheckedAt < EPOCH_CHECK_INTERVAL_MS) return;
    this.epochCheck ??= this.checkEpoch().finally(() => {
      this.epochCheck = null;
    });
    await this.epochCheck;
  }

  private async checkEpoch(): Promise<void> {
    const startedAt = this.clock.now().getTime();
    const epoch = await this.epoch.read().catch(() => null);
    if (epoch === null || (this.epochSeen !== null && epoch !== this.epochSeen)) {
      this.listeners.forEach((listener) => listener.reset());
    }
    if (epoch === null) return; // not trusted: read again on the next use
    this.epochSeen = epoch;
    this.epochCheckedAt = startedAt;
  }

  private async recordMissedInvalidation(): Promise<void> {
    try {
      await this.epoch.bump();
    } catch (error) {
      // Both channels failed: other replicas trust their cached state until its 60 s TTL.
      this.logger.error(`identity invalidation neither published nor recorded: ${(error as Error).message}`);
    }
  }

  private async subscribe(): Promise<void> {
    try {
      await this.subscriber!.subscribe(IDENTITY_INVALIDATION_CHANNEL);
      // Anything cached before (re)subscribing may have missed an invalidation.
      this.listeners.forEach((listener) => listener.reset());
      this.subscribed = true;
    } catch (error) {
      this.logger.warn(`identity invalidation channel unavailable: ${(error as Error).message}`);
    }
  }

  private receive(message: string): void {
    let parsed: { from?: unknown; dids?: unknown };
    try {
      parsed = JSON.parse(message) as typeof parsed;
    } catch {
      return;
    }
    if (parsed.from === this.instance || !Array.isArray(parsed.dids)) return;
    for (const did of parsed.dids) {
      if (typeof did === 'string') this.listeners.forEach((listener) => listener.invalidate(did));
    }
  }
}
