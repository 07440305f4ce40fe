import { affectedRows, ErasedRows } from '../common/erasure/erased-rows';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { KeysetSeek } from '../common/pagination/keyset';
import { defineStatements } from '../infrastructure/database/statements';
import { Export, ExportState } from './entities/export.entity';

const COLUMNS =
  'id, owner_did, space_id, state, created_at, updated_at, finished_at, expires_at, archive_key, size_bytes, failure_reason';

/**
 * The exports module's fixed SQL (docs/decisions/0131-a-repository-per-module.md), written to
 * docs/queries/exports.sql by `npm run build && npm run queries:write`.
 */
export const EXPORTS_STATEMENTS = defineStatements('ExportsRepository', {
  /** A page of an owner's exports, newest first ($1 owner, $2 rows to read, $3 the cursor's id). */
  pageOfOwner: {
    first: `SELECT ${COLUMNS} FROM exports WHERE owner_did = $1 AND space_id IS NULL ORDER BY id DESC LIMIT $2`,
    after: `SELECT ${COLUMNS} FROM exports WHERE owner_did = $1 AND space_id IS NULL AND id < $3 ORDER BY id DESC LIMIT $2`,
    before: `SELECT ${COLUMNS} FROM exports WHERE owner_did = $1 AND space_id IS NULL AND id > $3 ORDER BY id ASC LIMIT $2`,
  },
  /** A page of a space's exports, newest first ($1 space, $2 rows to read, $3 the cursor's id). */
  pageOfSpace: {
    first: `SELECT ${COLUMNS} FROM exports WHERE space_id = $1 ORDER BY id DESC LIMIT $2`,
    after: `SELECT ${COLUMNS} FROM exports WHERE space_id = $1 AND id < $3 ORDER BY id DESC LIMIT $2`,
    before: `SELECT ${COLUMNS} FROM exports WHERE space_id = $1 AND id > $3 ORDER BY id ASC LIMIT $2`,
  },
  /** One export ($1). */
  byId: `SELECT ${COLUMNS} FROM exports WHERE id = $1`,
  /** A new export, queued ($1 id, $2 owner, $3 now); the unique index refuses a second in progress. */
  insert:
    "INSERT INTO exports (id, owner_did, state, created_at, updated_at) VALUES ($1, $2, 'queued', $3, $3)",
  /**
   * A new export of a space ($4) asked by its owner ($2), queued ($1 id, $3 now); the unique index
   * refuses a second in progress for the space.
   */
  insertOfSpace:
    "INSERT INTO exports (id, owner_did, space_id, state, created_at, updated_at) VALUES ($1, $2, $4, 'queued', $3, $3)",
  /** Takes a queued (or retried running) export ($1) at $2; no row when it is settled. */
  start:
    "UPDATE exports SET state = 'running', updated_at = $2 WHERE id = $1 AND state IN ('queued', 'running') " +
    `RETURNING ${COLUMNS}`,
  /** The archive is stored: ready ($1 id, $2 now, $3 key, $4 size, $5 expiry); no row unless it was running. */
  ready:
    "UPDATE exports SET state = 'ready', updated_at = $2, finished_at = $2, archive_key = $3, size_bytes = $4, " +
    "expires_at = $5 WHERE id = $1 AND state = 'running' RETURNING id",
  /** The build gave up ($1 id, $2 now, $3 why). */
  fail:
    "UPDATE exports SET state = 'failed', updated_at = $2, finished_at = $2, failure_reason = $3 " +
    "WHERE id = $1 AND state IN ('queued', 'running')",
  /** Ready exports whose expiry passed ($1 now, $2 rows), locked for the sweep. */
  expiring:
    `SELECT ${COLUMNS} FROM exports WHERE state = 'ready' AND expires_at <= $1 ORDER BY expires_at LIMIT $2 ` +
    'FOR UPDATE SKIP LOCKED',
  /**
   * An erasure of the owner ($1) at $2 (docs/decisions/0214-an-erasure-removes-the-persons-exports.md):
   * every export without an archive goes…
   */
  eraseWithoutArchive: 'DELETE FROM exports WHERE owner_did = $1 AND archive_key IS NULL',
  /** …and the ready ones lose their owner and expire now, for the sweep to delete their archives. */
  orphanReady:
    "UPDATE exports SET owner_did = '', expires_at = $2, updated_at = $2 WHERE owner_did = $1 AND state = 'ready'",
  /** The archive is gone: expired ($1 id, $2 now). */
  expire:
    "UPDATE exports SET state = 'expired', updated_at = $2, archive_key = NULL WHERE id = $1 AND state = 'ready'",
});

interface ExportRow {
  id: string;
  owner_did: string;
  space_id: string | null;
  state: ExportState;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
  expires_at: Date | null;
  archive_key: string | null;
  size_bytes: string | null;
  failure_reason: string | null;
}

const exportOf = (row: ExportRow): Export => ({
  id: row.id,
  ownerDid: row.owner_did,
  spaceId: row.space_id,
  state: row.state,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  finishedAt: row.finished_at,
  expiresAt: row.expires_at,
  archiveKey: row.archive_key,
  sizeBytes: row.size_bytes === null ? null : Number(row.size_bytes),
  failureReason: row.failure_reason,
});

/** Every statement on `exports`; methods take the caller's transaction as their last argument. */
@Injectable()
export class ExportsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A new queued export; a unique violation when the owner has one in progress. */
  async insert(
    id: string,
    ownerDid: string,
    at: Date,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await runner.query(EXPORTS_STATEMENTS.insert, [id, ownerDid, at]);
  }

  /** A new queued export of a space; a unique violation when the space has one in progress. */
  async insertOfSpace(
    id: string,
    ownerDid: string,
    spaceId: string,
    at: Date,
    runner: EntityManager,
  ): Promise<void> {
    await runner.query(EXPORTS_STATEMENTS.insertOfSpace, [id, ownerDid, at, spaceId]);
  }

  async byId(id: string, runner: EntityManager = this.dataSource.manager): Promise<Export | null> {
    const rows = await runner.query<ExportRow[]>(EXPORTS_STATEMENTS.byId, [id]);
    return rows.length === 0 ? null : exportOf(rows[0]);
  }

  async start(id: string, at: Date): Promise<Export | null> {
    // An UPDATE … RETURNING answers [rows, affected count] through TypeORM.
    const [rows] = await this.dataSource.query<[ExportRow[], number]>(EXPORTS_STATEMENTS.start, [id, at]);
    return rows.length === 0 ? null : exportOf(rows[0]);
  }

  /** True when the export became ready (it was still running). */
  async ready(id: string, at: Date, key: string, size: number, expiresAt: Date): Promise<boolean> {
    const [rows] = await this.dataSource.query<[unknown[], number]>(EXPORTS_STATEMENTS.ready, [
      id,
      at,
      key,
      size,
      expiresAt,
    ]);
    return rows.length > 0;
  }

  async fail(id: string, at: Date, reason: string): Promise<void> {
    await this.dataSource.query(EXPORTS_STATEMENTS.fail, [id, at, reason.slice(0, 500)]);
  }

  async expiring(at: Date, limit: number, runner: EntityManager): Promise<Export[]> {
    const rows = await runner.query<ExportRow[]>(EXPORTS_STATEMENTS.expiring, [at, limit]);
    return rows.map(exportOf);
  }

  /** The erasure's part: the owner's exports deleted, or left to the sweep without their owner. */
  async eraseOwner(ownerDid: string, at: Date, runner: EntityManager): Promise<ErasedRows> {
    const deleted = affectedRows(await runner.query(EXPORTS_STATEMENTS.eraseWithoutArchive, [ownerDid]));
    const orphaned = affectedRows(await runner.query(EXPORTS_STATEMENTS.orphanReady, [ownerDid, at]));
    return { exports: deleted + orphaned };
  }

  async expire(id: string, at: Date, runner: EntityManager): Promise<void> {
    await runner.query(EXPORTS_STATEMENTS.expire, [id, at]);
  }

  /** The rows of a keyset page (common/pagination/keyset.ts) of `ownerDid`'s personal exports. */
  async pageOfOwner(
    ownerDid: string,
    seek: KeysetSeek,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<Export[]> {
    return this.page(EXPORTS_STATEMENTS.pageOfOwner, ownerDid, seek, runner);
  }

  /** The rows of a keyset page of the exports of the space `spaceId`. */
  async pageOfSpace(
    spaceId: string,
    seek: KeysetSeek,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<Export[]> {
    return this.page(EXPORTS_STATEMENTS.pageOfSpace, spaceId, seek, runner);
  }

  private async page(
    statements: { first: string; after: string; before: string },
    key: string,
    seek: KeysetSeek,
    runner: EntityManager,
  ): Promise<Export[]> {
    const rows = seek.values
      ? await runner.query<ExportRow[]>(seek.backward ? statements.before : statements.after, [
          key,
          seek.take,
          seek.values[0],
        ])
      : await runner.query<ExportRow[]>(statements.first, [key, seek.take]);
    return rows.map(exportOf);
  }
}
