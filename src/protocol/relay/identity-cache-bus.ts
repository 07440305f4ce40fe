import { Injectable, Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { SharedRedis } from '../../infrastructure/redis/shared-redis';

export const IDENTITY_INVALIDATION_CHANNEL = 'plat:relay:identity-invalidated';

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
 */
@Injectable()
export class IdentityCacheBus {
  private readonly logger = new Logger(IdentityCacheBus.name);
  private readonly listeners = new Set<IdentityCacheListener>();
  private readonly instance = randomUUID();
  private readonly publisher?: Redis;
  private readonly subscriber?: Redis;
  private subscribed = false;

  constructor(redis: SharedRedis) {
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
      // Other replicas then serve their cached state until its TTL runs out.
      this.logger.warn(`identity invalidation not published: ${(error as Error).message}`);
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
