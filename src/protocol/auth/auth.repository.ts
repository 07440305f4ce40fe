import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { defineStatements } from '../../infrastructure/database/statements';

/** The auth module's fixed SQL on `replay_jtis` (docs/decisions/0131-a-repository-per-module.md). */
export const AUTH_STATEMENTS = defineStatements('AuthRepository', {
  /**
   * Reserves (did $1, jti $2) until $3 unless it is reserved and not expired at $4; a row back when
   * the pair was new (or expired).
   */
  rememberJti: `INSERT INTO replay_jtis (did, jti, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (did, jti) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE replay_jtis.expires_at <= $4
         RETURNING did`,
  /** Gives (did $1, jti $2) back. */
  forgetJti: 'DELETE FROM replay_jtis WHERE did = $1 AND jti = $2',
  /** Deletes the pairs expired at $1. */
  deleteExpiredJtis: 'DELETE FROM replay_jtis WHERE expires_at <= $1',
});

/** Every statement on `replay_jtis`: the write proofs' spent (signer, jti) pairs. */
@Injectable()
export class AuthRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** True when the pair was new (or its reservation had expired), and is now reserved. */
  async rememberJti(did: string, jti: string, expiresAt: Date, now: Date): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>(AUTH_STATEMENTS.rememberJti, [
      did,
      jti,
      expiresAt,
      now,
    ]);
    return rows.length === 1;
  }

  async forgetJti(did: string, jti: string): Promise<void> {
    await this.dataSource.query(AUTH_STATEMENTS.forgetJti, [did, jti]);
  }

  async deleteExpiredJtis(now: Date): Promise<void> {
    await this.dataSource.query(AUTH_STATEMENTS.deleteExpiredJtis, [now]);
  }
}
