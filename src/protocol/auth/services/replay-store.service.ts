import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../../common/clock/clock';
import { RequestWrites } from '../../../infrastructure/database/request-writes';
import { serviceUnavailable } from '../../../common/errors/api-error';

/** Remembers write-proof `jti`s per signer; answers whether a pair is new. Never fails open. */
export abstract class ReplayStore {
  /** True when (did, jti) was not seen within the window (and is now remembered). */
  abstract remember(did: string, jti: string, ttlSeconds: number): Promise<boolean>;
  /**
   * Gives a remembered pair back (the write it reserved was refused and changed nothing). Best
   * effort: a store that cannot answer leaves the pair spent, the safe direction.
   */
  abstract forget(did: string, jti: string): Promise<void>;
}

/**
 * The one store, with or without Redis: a table with expiry, shared by every replica through the
 * database (`INSERT ... ON CONFLICT` is atomic), so a spent pair survives a Redis restart
 * (docs/decisions/0027-replay-protection-spent-jtis-in-postgresql.md). An expired pair may be used again.
 */
@Injectable()
export class PostgresReplayStore extends ReplayStore {
  private readonly logger = new Logger(PostgresReplayStore.name);
  private lastSweep = 0;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly writes: RequestWrites,
  ) {
    super();
  }

  async remember(did: string, jti: string, ttlSeconds: number): Promise<boolean> {
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
    try {
      // The reservation is not the request's own write (RequestWrites).
      const rows: unknown[] = await this.writes.untracked(() =>
        this.dataSource.query(
          `INSERT INTO replay_jtis (did, jti, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (did, jti) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE replay_jtis.expires_at <= $4
         RETURNING did`,
          [did, jti, expiresAt, now],
        ),
      );
      this.sweep(now);
      return rows.length === 1;
    } catch (error) {
      this.logger.error(`replay store failed: ${(error as Error).message}`);
      throw serviceUnavailable('Replay protection is unavailable');
    }
  }

  async forget(did: string, jti: string): Promise<void> {
    await this.writes
      .untracked(() =>
        this.dataSource.query('DELETE FROM replay_jtis WHERE did = $1 AND jti = $2', [did, jti]),
      )
      .catch((error: Error) => this.logger.warn(`replay store could not forget a jti: ${error.message}`));
  }

  /** Deletes expired pairs at most once a minute, off the request path. */
  private sweep(now: Date): void {
    if (now.getTime() - this.lastSweep < 60_000) return;
    this.lastSweep = now.getTime();
    this.writes
      .untracked(() => this.dataSource.query('DELETE FROM replay_jtis WHERE expires_at <= $1', [now]))
      .catch(() => undefined);
  }
}
