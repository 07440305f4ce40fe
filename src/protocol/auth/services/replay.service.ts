import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock';
import { serviceUnavailable } from '../../../common/errors/api-error';
import { RequestWrites } from '../../../infrastructure/database/request-writes';
import { AuthRepository } from '../auth.repository';

/**
 * Remembers write-proof `jti`s per signer and answers whether a pair is new; never fails open. The
 * one store, with or without Redis: a table with expiry, shared by every replica through the
 * database (`INSERT ... ON CONFLICT` is atomic), so a spent pair survives a Redis restart
 * (docs/decisions/0027-replay-protection-spent-jtis-in-postgresql.md). An expired pair may be used again.
 */
@Injectable()
export class ReplayService {
  private readonly logger = new Logger(ReplayService.name);
  private lastSweep = 0;

  constructor(
    private readonly repository: AuthRepository,
    private readonly clock: Clock,
    private readonly writes: RequestWrites,
  ) {}

  /** True when (did, jti) was not seen within the window (and is now remembered). */
  async remember(did: string, jti: string, ttlSeconds: number): Promise<boolean> {
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
    try {
      // The reservation is not the request's own write (RequestWrites).
      const fresh = await this.writes.untracked(() => this.repository.rememberJti(did, jti, expiresAt, now));
      this.sweep(now);
      return fresh;
    } catch (error) {
      this.logger.error(`replay store failed: ${(error as Error).message}`);
      throw serviceUnavailable('Replay protection is unavailable');
    }
  }

  /**
   * Gives a remembered pair back (the write it reserved was refused and changed nothing). Best
   * effort: a store that cannot answer leaves the pair spent, the safe direction.
   */
  async forget(did: string, jti: string): Promise<void> {
    await this.writes
      .untracked(() => this.repository.forgetJti(did, jti))
      .catch((error: Error) => this.logger.warn(`replay store could not forget a jti: ${error.message}`));
  }

  /** Deletes expired pairs at most once a minute, off the request path. */
  private sweep(now: Date): void {
    if (now.getTime() - this.lastSweep < 60_000) return;
    this.lastSweep = now.getTime();
    this.writes.untracked(() => this.repository.deleteExpiredJtis(now)).catch(() => undefined);
  }
}
