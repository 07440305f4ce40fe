import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { serviceUnavailable } from '../../common/errors/api-error';
import { RequestWrites } from '../database/request-writes';

/** Whose key: the person acting, the client signing, and the key itself. */
export interface KeyOwner {
  principalDid: string;
  clientDid: string;
  key: string;
}

export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** What a live row of another request holds. */
export type HeldKey = { fingerprint: Buffer } & (
  { state: 'in-flight' } | { state: 'completed'; answer: StoredAnswer }
);

interface HeldRow {
  fingerprint: Buffer;
  state: 'in-flight' | 'completed';
  status: number | null;
  headers: Record<string, string> | null;
  body: Buffer | null;
}

const SWEEP_INTERVAL_MS = 60_000;

/**
 * The `idempotency_keys` table. Its statements are never the request's own writes
 * (`RequestWrites.untracked`): a 500 after a reservation alone still counts as "nothing written".
 */
@Injectable()
export class IdempotencyStore {
  private readonly logger = new Logger(IdempotencyStore.name);
  private lastSweep = 0;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly writes: RequestWrites,
  ) {}

  /**
   * Takes the key for a new request (a row that expired, a lapsed lease included, is taken over),
   * or answers what the live row holds. Undefined when the key is ours.
   */
  async reserve(
    owner: KeyOwner,
    reservation: { id: string; fingerprint: Buffer; now: Date; leaseUntil: Date },
  ): Promise<HeldKey | undefined> {
    const { principalDid, clientDid, key } = owner;
    const { id, fingerprint, now, leaseUntil } = reservation;
    try {
      // A row released between the two statements is retried once; then the key counts as busy.
      for (let attempt = 0; attempt < 2; attempt++) {
        const taken: unknown[] = await this.untracked(
          `INSERT INTO idempotency_keys
             (principal_did, client_did, key, reservation, fingerprint, state, created_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, 'in-flight', $6, $7)
           ON CONFLICT (principal_did, client_did, key) DO UPDATE SET
             reservation = EXCLUDED.reservation, fingerprint = EXCLUDED.fingerprint, state = 'in-flight',
             status = NULL, headers = NULL, body = NULL,
             created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
           WHERE idempotency_keys.expires_at <= $6
           RETURNING reservation`,
          [principalDid, clientDid, key, id, fingerprint, now, leaseUntil],
        );
        if (taken.length === 1) {
          this.sweep(now);
          return undefined;
        }
        const [held] = await this.untracked<HeldRow>(
          `SELECT fingerprint, state, status, headers, body FROM idempotency_keys
           WHERE principal_did = $1 AND client_did = $2 AND key = $3 AND expires_at > $4`,
          [principalDid, clientDid, key, now],
        );
        if (held) return heldKey(held);
      }
      return { fingerprint, state: 'in-flight' };
    } catch (error) {
      this.logger.error(`idempotency store failed: ${(error as Error).message}`);
      throw serviceUnavailable('Idempotency keys are unavailable');
    }
  }

  /** Records the answer of the request holding the reservation, kept until `expiresAt`. */
  async complete(owner: KeyOwner, reservation: string, answer: StoredAnswer, expiresAt: Date): Promise<void> {
    await this.untracked(
      `UPDATE idempotency_keys SET state = 'completed', status = $5, headers = $6, body = $7, expires_at = $8
       WHERE principal_did = $1 AND client_did = $2 AND key = $3 AND reservation = $4`,
      [
        owner.principalDid,
        owner.clientDid,
        owner.key,
        reservation,
        answer.status,
        answer.headers,
        answer.body,
        expiresAt,
      ],
    );
  }

  /** Gives the key back: the request changed nothing, so a retry must run. */
  async release(owner: KeyOwner, reservation: string): Promise<void> {
    await this.untracked(
      `DELETE FROM idempotency_keys
       WHERE principal_did = $1 AND client_did = $2 AND key = $3 AND reservation = $4`,
      [owner.principalDid, owner.clientDid, owner.key, reservation],
    );
  }

  /** Deletes expired rows at most once a minute, off the request path. */
  private sweep(now: Date): void {
    if (now.getTime() - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now.getTime();
    this.untracked('DELETE FROM idempotency_keys WHERE expires_at <= $1', [now]).catch((error: Error) =>
      this.logger.warn(`idempotency sweep failed: ${error.message}`),
    );
  }

  private untracked<T = unknown>(sql: string, parameters: unknown[]): Promise<T[]> {
    return this.writes.untracked(() => this.dataSource.query(sql, parameters));
  }
}

function heldKey(row: HeldRow): HeldKey {
  if (row.state === 'in-flight') return { fingerprint: row.fingerprint, state: 'in-flight' };
  return {
    fingerprint: row.fingerprint,
    state: 'completed',
    answer: { status: row.status!, headers: row.headers ?? {}, body: row.body ?? Buffer.alloc(0) },
  };
}
