import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { defineStatements } from '../database/statements';
import { affectedRows, ErasedRows } from '../../common/erasure/erased-rows';

/** Idempotency-Keys' fixed SQL on `idempotency_keys` (docs/decisions/0131-a-repository-per-module.md). */
export const IDEMPOTENCY_STATEMENTS = defineStatements('IdempotencyRepository', {
  /**
   * Takes key ($1 principal, $2 client, $3 key) for reservation $4 ($5 fingerprint, $6 now, $7 the
   * lease's end) unless a live row holds it; a row back when it was taken.
   */
  reserve: `INSERT INTO idempotency_keys
             (principal_did, client_did, key, reservation, fingerprint, state, created_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, 'in-flight', $6, $7)
           ON CONFLICT (principal_did, client_did, key) DO UPDATE SET
             reservation = EXCLUDED.reservation, fingerprint = EXCLUDED.fingerprint, state = 'in-flight',
             status = NULL, headers = NULL, body = NULL,
             created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
           WHERE idempotency_keys.expires_at <= $6
           RETURNING reservation`,
  /** What the live row of key ($1, $2, $3) holds at $4. */
  held: `SELECT fingerprint, state, status, headers, body FROM idempotency_keys
           WHERE principal_did = $1 AND client_did = $2 AND key = $3 AND expires_at > $4`,
  /** The answer ($5 status, $6 headers, $7 body, kept until $8) of reservation $4 of key ($1, $2, $3). */
  complete: `UPDATE idempotency_keys SET state = 'completed', status = $5, headers = $6, body = $7, expires_at = $8
       WHERE principal_did = $1 AND client_did = $2 AND key = $3 AND reservation = $4`,
  /** Gives key ($1, $2, $3) back if reservation $4 still holds it. */
  release: `DELETE FROM idempotency_keys
       WHERE principal_did = $1 AND client_did = $2 AND key = $3 AND reservation = $4`,
  /** Deletes the rows expired at $1. */
  deleteExpired: 'DELETE FROM idempotency_keys WHERE expires_at <= $1',
  /** Every record of a person ($1) as signer or as client: their erasure (docs/decisions/0196). */
  eraseOf: 'DELETE FROM idempotency_keys WHERE principal_did = $1 OR client_did = $1',
});

/** Whose key: the person acting, the client signing, and the key itself. */
export interface KeyOwner {
  principalDid: string;
  clientDid: string;
  key: string;
}

export interface HeldRow {
  fingerprint: Buffer;
  state: 'in-flight' | 'completed';
  status: number | null;
  headers: Record<string, string> | null;
  body: Buffer | null;
}

/** Every statement on `idempotency_keys`. */
@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async eraseOf(did: string, runner: EntityManager): Promise<ErasedRows> {
    return { idempotency_keys: affectedRows(await runner.query(IDEMPOTENCY_STATEMENTS.eraseOf, [did])) };
  }

  /** True when the key was taken for the reservation. */
  async reserve(
    owner: KeyOwner,
    reservation: { id: string; fingerprint: Buffer; now: Date; leaseUntil: Date },
  ): Promise<boolean> {
    const taken = await this.dataSource.query<unknown[]>(IDEMPOTENCY_STATEMENTS.reserve, [
      owner.principalDid,
      owner.clientDid,
      owner.key,
      reservation.id,
      reservation.fingerprint,
      reservation.now,
      reservation.leaseUntil,
    ]);
    return taken.length === 1;
  }

  async held(owner: KeyOwner, now: Date): Promise<HeldRow | undefined> {
    const [held] = await this.dataSource.query<HeldRow[]>(IDEMPOTENCY_STATEMENTS.held, [
      owner.principalDid,
      owner.clientDid,
      owner.key,
      now,
    ]);
    return held;
  }

  async complete(
    owner: KeyOwner,
    reservation: string,
    answer: { status: number; headers: Record<string, string>; body: Buffer },
    expiresAt: Date,
  ): Promise<void> {
    await this.dataSource.query(IDEMPOTENCY_STATEMENTS.complete, [
      owner.principalDid,
      owner.clientDid,
      owner.key,
      reservation,
      answer.status,
      answer.headers,
      answer.body,
      expiresAt,
    ]);
  }

  async release(owner: KeyOwner, reservation: string): Promise<void> {
    await this.dataSource.query(IDEMPOTENCY_STATEMENTS.release, [
      owner.principalDid,
      owner.clientDid,
      owner.key,
      reservation,
    ]);
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.dataSource.query(IDEMPOTENCY_STATEMENTS.deleteExpired, [now]);
  }
}
