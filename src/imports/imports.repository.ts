import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { defineStatements } from '../infrastructure/database/statements';
import { SpaceImport, SpaceImportState } from './entities/space-import.entity';

const COLUMNS =
  'id, owner_did, state, archive_key, space_id, failure_reason, created_at, updated_at, finished_at';

/**
 * The imports module's fixed SQL (docs/decisions/0131-a-repository-per-module.md), written to
 * docs/queries/imports.sql by `npm run build && npm run queries:write`.
 */
export const IMPORTS_STATEMENTS = defineStatements('ImportsRepository', {
  /** A new import, queued, with its archive ($1 id, $2 owner, $3 now, $4 the archive's store key). */
  insert:
    "INSERT INTO imports (id, owner_did, state, archive_key, created_at, updated_at) VALUES ($1, $2, 'queued', $4, $3, $3)",
  /** One import ($1). */
  byId: `SELECT ${COLUMNS} FROM imports WHERE id = $1`,
  /** Takes a queued (or retried running) import ($1) at $2; no row once settled. */
  start:
    "UPDATE imports SET state = 'running', updated_at = $2 WHERE id = $1 AND state IN ('queued', 'running') " +
    `RETURNING ${COLUMNS}`,
  /** The new space ($2) of a running import ($1), recorded as soon as it exists. */
  recordSpace: "UPDATE imports SET space_id = $2 WHERE id = $1 AND state = 'running'",
  /**
   * Settles a running import ($1) at $2: done, or failed with $4 (the space kept or cleared, $3).
   * The archive's key is dropped (the caller removes its object), or kept ($6) for a done import's
   * announcement (docs/decisions/0236).
   */
  settle:
    'UPDATE imports SET state = $5, updated_at = $2, finished_at = $2, space_id = $3, failure_reason = $4, ' +
    "archive_key = CASE WHEN $6 THEN archive_key END WHERE id = $1 AND state = 'running'",
  /** The archive of a done import ($1) still to be announced; no row (or a null one) once it was. */
  announced: "SELECT owner_did, archive_key FROM imports WHERE id = $1 AND state = 'done'",
  /** Drops a done import's ($1) archive key once announced (the caller removes its object). */
  releaseArchive: "UPDATE imports SET archive_key = NULL WHERE id = $1 AND state = 'done'",
  /**
   * An account erasure ($1 the person): their imports, whatever their state, with the archive keys
   * still held (removed after the erasure commits: docs/decisions/0237).
   */
  eraseOwner: 'DELETE FROM imports WHERE owner_did = $1 RETURNING archive_key',
});

interface SpaceImportRow {
  id: string;
  owner_did: string;
  state: SpaceImportState;
  space_id: string | null;
  failure_reason: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
  archive_key: string | null;
}

const spaceImportOf = (row: SpaceImportRow): SpaceImport => ({
  id: row.id,
  ownerDid: row.owner_did,
  state: row.state,
  archiveKey: row.archive_key,
  spaceId: row.space_id,
  failureReason: row.failure_reason,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  finishedAt: row.finished_at,
});

/** Every statement on `imports`; methods take the caller's transaction as their last argument. */
@Injectable()
export class ImportsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(
    id: string,
    ownerDid: string,
    at: Date,
    archiveKey: string,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await runner.query(IMPORTS_STATEMENTS.insert, [id, ownerDid, at, archiveKey]);
  }

  async byId(id: string): Promise<SpaceImport | null> {
    const rows = await this.dataSource.query<SpaceImportRow[]>(IMPORTS_STATEMENTS.byId, [id]);
    return rows.length ? spaceImportOf(rows[0]) : null;
  }

  async start(id: string, at: Date): Promise<SpaceImport | null> {
    // pg answers an UPDATE … RETURNING with [rows, count].
    const [rows] = await this.dataSource.query<[SpaceImportRow[], number]>(IMPORTS_STATEMENTS.start, [
      id,
      at,
    ]);
    return rows.length ? spaceImportOf(rows[0]) : null;
  }

  async recordSpace(id: string, spaceId: string): Promise<void> {
    await this.dataSource.query(IMPORTS_STATEMENTS.recordSpace, [id, spaceId]);
  }

  async settle(
    id: string,
    at: Date,
    outcome: { state: 'done'; spaceId: string } | { state: 'failed'; reason: string },
    runner: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await runner.query(IMPORTS_STATEMENTS.settle, [
      id,
      at,
      outcome.state === 'done' ? outcome.spaceId : null,
      outcome.state === 'failed' ? outcome.reason.slice(0, 500) : null,
      outcome.state,
      outcome.state === 'done',
    ]);
  }

  /** A done import's archive still to be announced, else null. */
  async announced(id: string): Promise<{ ownerDid: string; archiveKey: string } | null> {
    const rows = await this.dataSource.query<{ owner_did: string; archive_key: string | null }[]>(
      IMPORTS_STATEMENTS.announced,
      [id],
    );
    const archiveKey = rows[0]?.archive_key;
    return archiveKey ? { ownerDid: rows[0].owner_did, archiveKey } : null;
  }

  async releaseArchive(id: string): Promise<void> {
    await this.dataSource.query(IMPORTS_STATEMENTS.releaseArchive, [id]);
  }

  /** Deletes the person's imports; answers how many, and the archive keys they held. */
  async eraseOwner(
    ownerDid: string,
    runner: EntityManager,
  ): Promise<{ count: number; archiveKeys: string[] }> {
    const [rows] = (await runner.query(IMPORTS_STATEMENTS.eraseOwner, [ownerDid])) as [
      { archive_key: string | null }[],
      number,
    ];
    return {
      count: rows.length,
      archiveKeys: rows.flatMap((row) => (row.archive_key ? [row.archive_key] : [])),
    };
  }
}
