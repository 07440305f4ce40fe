import { Logger } from '@nestjs/common';
import Redis, { RedisOptions } from 'ioredis';
import { settleWithin } from '../../common/settle-within';
import { AppConfig } from '../../config/app-config';

/**
 * How long a dropped connection's socket may take to close before it is destroyed. ioredis also
 * arms this timer for a socket that had already failed (Redis unreachable) and waits it out in
 * full: its default of 2 s kept a stopping process alive that long.
 */
export const REDIS_DISCONNECT_PATIENCE_MS = 100;

/**
 * The replica's Redis connections (REDIS_URL): one command connection shared by the rate limiter
 * and the identity-invalidation publisher, and subscriber connections for pub/sub
 * (a subscribed connection can run no other command).
 *
 * The command connection never queues: while Redis is unreachable a command fails at once, and
 * every command fails after REDIS_TIMEOUT_MS, so callers answer 503 instead of waiting (never fail
 * open). It keeps reconnecting in the background; boot does not fail because Redis is down.
 */
export class SharedRedis {
  private readonly logger = new Logger('Redis');
  private readonly subscribers: Redis[] = [];
  /** Null without REDIS_URL: every store then keeps its state in this process or the database. */
  readonly commands: Redis | null;

  constructor(private readonly config: AppConfig) {
    this.commands = config.REDIS_URL
      ? new Redis(config.REDIS_URL, {
          ...this.baseOptions(),
          lazyConnect: true,
          enableOfflineQueue: false,
          enableReadyCheck: false,
          maxRetriesPerRequest: 0,
          commandTimeout: config.REDIS_TIMEOUT_MS,
          enableAutoPipelining: true,
          retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
        })
      : null;
    // Failures surface per command (503); the connection keeps retrying.
    this.commands?.on('error', () => undefined);
  }

  /**
   * Connects the command connection, waiting at most `patienceMs`: a Redis that refuses or does not
   * answer does not stop the boot.
   */
  async connect(patienceMs = 5000): Promise<void> {
    if (!this.commands) return;
    const connecting = this.commands
      .connect()
      .catch((error: Error) => this.logger.warn(`Redis not reachable at boot: ${error.message}`));
    await settleWithin(connecting, patienceMs, undefined);
  }

  /**
   * A connection of its own for SUBSCRIBE. Its owner subscribes again on every `ready` (awaiting it,
   * so it knows when it may trust the channel again); ioredis's own re-subscription is off, since
   * nothing awaits it: a stop while it was in flight rejected it unhandled.
   */
  subscriber(): Redis | null {
    if (!this.config.REDIS_URL) return null;
    const subscriber = new Redis(this.config.REDIS_URL, { ...this.baseOptions(), autoResubscribe: false });
    subscriber.on('error', () => undefined);
    this.subscribers.push(subscriber);
    return subscriber;
  }

  async close(): Promise<void> {
    for (const subscriber of this.subscribers) subscriber.disconnect();
    if (!this.commands) return;
    if (this.commands.status === 'ready') await this.commands.quit().catch(() => undefined);
    this.commands.disconnect();
  }

  private baseOptions(): RedisOptions {
    return {
      connectTimeout: Math.max(this.config.REDIS_TIMEOUT_MS, 1000),
      disconnectTimeout: REDIS_DISCONNECT_PATIENCE_MS,
    };
  }
}
