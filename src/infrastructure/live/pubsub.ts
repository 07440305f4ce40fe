import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { settleWithin } from '../../common/settle-within';
import { AppConfig } from '../../config/app-config';
import { SharedRedis } from '../redis/shared-redis';

export type Delivery = (message: string) => void;

/** How long opening a subscription waits for Redis to confirm it before going on. */
const SUBSCRIBE_PATIENCE_MS = 2000;

/**
 * Messages to whichever replica listens on a channel (docs/decisions/0170-a-live-stream-of-notifications.md).
 * With REDIS_URL: Redis pub/sub, one dedicated subscriber connection per replica (a subscribed
 * connection runs no other command), publishing on the shared command connection. Without it:
 * in this process only (one replica).
 *
 * Pub/sub is at-most-once: while the subscriber connection is down, messages are lost. Listeners
 * of `onResubscribed` learn when it is back (every channel subscribed again), so they can catch up
 * from their own durable record (the stream reads the notifications table). A publish that Redis
 * refuses still reaches this replica's own listeners, and is logged.
 */
@Injectable()
export class PubSub implements OnModuleDestroy {
  private readonly logger = new Logger(PubSub.name);
  private readonly handlers = new Map<string, Set<Delivery>>();
  private readonly resubscribed = new Set<() => void>();
  private readonly subscriber: Redis | null;
  private readonly publisher: Redis | null;
  private readonly prefix: string;
  /** The subscriber connection was lost since it was last ready (messages may be missing). */
  private lost = false;

  constructor(redis: SharedRedis, config: AppConfig) {
    this.prefix = `${config.STREAM_REDIS_PREFIX}ch:`;
    this.subscriber = redis.subscriber();
    this.publisher = this.subscriber ? redis.commands : null;
    if (!this.subscriber) return;
    this.subscriber.on('close', () => {
      this.lost = true;
    });
    this.subscriber.on('ready', () => void this.recovered());
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel.startsWith(this.prefix)) this.deliver(channel.slice(this.prefix.length), message);
    });
  }

  /**
   * Listens on `channel` until the returned function is called. Waits (bounded) until Redis has
   * confirmed the subscription, so a message published after this resolves reaches `handler`.
   */
  async subscribe(channel: string, handler: Delivery): Promise<() => void> {
    let handlers = this.handlers.get(channel);
    const first = !handlers;
    if (!handlers) {
      handlers = new Set();
      this.handlers.set(channel, handlers);
    }
    handlers.add(handler);
    if (first && this.subscriber) {
      const subscribing = this.subscriber.subscribe(this.prefix + channel).then(
        () => undefined,
        (error: Error) => this.logger.warn(`subscribe failed: ${error.message}`),
      );
      await settleWithin(subscribing, SUBSCRIBE_PATIENCE_MS, undefined);
    }
    return () => this.unsubscribe(channel, handler);
  }

  /** Sends `message` to every listener of `channel` on every replica. */
  async publish(channel: string, message: string): Promise<void> {
    if (!this.publisher) return this.deliver(channel, message);
    try {
      await this.publisher.publish(this.prefix + channel, message);
    } catch (error) {
      // This replica's own listeners still hear it; the others catch up once Redis is back.
      this.logger.warn(`publish failed: ${(error as Error).message}`);
      this.deliver(channel, message);
    }
  }

  /** Runs `listener` whenever the subscription comes back after a loss. */
  onResubscribed(listener: () => void): () => void {
    this.resubscribed.add(listener);
    return () => this.resubscribed.delete(listener);
  }

  onModuleDestroy(): void {
    this.handlers.clear();
    this.resubscribed.clear();
  }

  private unsubscribe(channel: string, handler: Delivery): void {
    const handlers = this.handlers.get(channel);
    if (!handlers?.delete(handler) || handlers.size > 0) return;
    this.handlers.delete(channel);
    this.subscriber
      ?.unsubscribe(this.prefix + channel)
      .catch((error: Error) => this.logger.warn(`unsubscribe failed: ${error.message}`));
  }

  private deliver(channel: string, message: string): void {
    for (const handler of this.handlers.get(channel) ?? []) {
      try {
        handler(message);
      } catch (error) {
        this.logger.error({ err: error }, 'pub/sub delivery failed');
      }
    }
  }

  /**
   * After a reconnect: subscribe every channel again (ioredis would too, but this awaits it), then
   * tell the listeners, whose catch-up read then overlaps the live subscription (no gap).
   */
  private async recovered(): Promise<void> {
    if (!this.lost) return;
    this.lost = false;
    const channels = [...this.handlers.keys()].map((channel) => this.prefix + channel);
    try {
      if (channels.length > 0) await this.subscriber!.subscribe(...channels);
    } catch (error) {
      this.logger.warn(`resubscribe failed: ${(error as Error).message}`);
      return;
    }
    for (const listener of this.resubscribed) listener();
  }
}
