import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { defineStatements } from '../../../infrastructure/database/statements';

/**
 * The store-then-verify buffer's fixed SQL on `relay_pending_operations` (WEB-RELAY.md
 * "Convergence"; docs/decisions/0131-a-repository-per-module.md).
 */
export const RELAY_PENDING_STATEMENTS = defineStatements('RelayPendingRepository', {
  /** Buffered operations received after $1 (the expiry cutoff). */
  countSince: 'SELECT count(*)::int AS count FROM relay_pending_operations WHERE received_at > $1',
  /** Every buffered operation, expired ones included (the capacity check). */
  count: 'SELECT count(*)::int AS count FROM relay_pending_operations',
  /** The oldest buffered operations first ($1 at most this many). */
  oldest: 'SELECT cid, jws FROM relay_pending_operations ORDER BY received_at ASC, cid ASC LIMIT $1',
  /** Buffers operations, idempotent by CID ($1 CIDs, $2 tokens, $3 kinds, $4 receipt times). */
  insertMany:
    'INSERT INTO relay_pending_operations (cid, jws, kind, received_at) ' +
    'SELECT * FROM unnest($1::varchar[], $2::text[], $3::varchar[], $4::timestamptz[]) ' +
    'ON CONFLICT (cid) DO NOTHING',
  /** Drops settled operations ($1 their CIDs). */
  deleteMany: 'DELETE FROM relay_pending_operations WHERE cid = ANY($1::varchar[])',
  /** Drops operations received at or before $1 (expired). */
  deleteExpired: 'DELETE FROM relay_pending_operations WHERE received_at <= $1',
});

export interface NewPendingOperation {
  cid: string;
  jws: string;
  kind: string;
  receivedAt: string;
}

/** Every statement on `relay_pending_operations`: operations waiting for a dependency. */
@Injectable()
export class RelayPendingRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async countSince(cutoff: string): Promise<number> {
    const [row] = await this.dataSource.query<{ count: number }[]>(RELAY_PENDING_STATEMENTS.countSince, [
      cutoff,
    ]);
    return row.count;
  }

  async count(): Promise<number> {
    const [row] = await this.dataSource.query<{ count: number }[]>(RELAY_PENDING_STATEMENTS.count);
    return row.count;
  }

  oldest(limit: number): Promise<{ cid: string; jws: string }[]> {
    return this.dataSource.query(RELAY_PENDING_STATEMENTS.oldest, [limit]);
  }

  async insertMany(operations: readonly NewPendingOperation[]): Promise<void> {
    await this.dataSource.query(RELAY_PENDING_STATEMENTS.insertMany, [
      operations.map((operation) => operation.cid),
      operations.map((operation) => operation.jws),
      operations.map((operation) => operation.kind),
      operations.map((operation) => operation.receivedAt),
    ]);
  }

  async deleteMany(cids: readonly string[]): Promise<void> {
    await this.dataSource.query(RELAY_PENDING_STATEMENTS.deleteMany, [cids]);
  }

  async deleteExpired(cutoff: string): Promise<void> {
    await this.dataSource.query(RELAY_PENDING_STATEMENTS.deleteExpired, [cutoff]);
  }
}
